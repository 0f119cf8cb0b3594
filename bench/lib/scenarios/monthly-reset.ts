/**
 * Scenario 4: the monthly reset of the programme's biggest company, through the admin's
 * POST /api/v1/jobs/monthly-reset, timed. Any other company that fell due since the history was
 * generated is reset first, untimed; then the big company's reset is brought to now (its
 * `next_reset_at`, an ordinary column) so the timed run resets it alone. Before the timed call the
 * employees table is vacuumed (untimed), as autovacuum would have done after the previous reset
 * rewrote half of it (the bench's server runs with autovacuum off): so the second run in a row
 * reads the same table as the first, not one with a dead version of every row it moves.
 */
import { startCpuMeter, type CpuSeconds } from '../cpu';
import { databaseName, withClient } from '../database';
import type { Session } from '../http';
import type { ProgrammeInfo } from '../programme';
import { round } from '../stats';

export interface ResetScenario {
  companyId: number;
  employees: number;
  activeEmployees: number;
  period: string;
  /** Whether the reset was applied (false: the job reported it `failed`, nothing written). */
  isApplied: boolean;
  seconds: number;
  ledgerRowsWritten: number;
  catchUpRuns: number;
  /** CPU seconds of the API and of the database's processes during the timed call. */
  cpuSeconds?: CpuSeconds;
}

interface ResetRun {
  company_id: number;
  period: string;
  status: string;
}

export async function runResetScenario(options: {
  databaseUrl: string;
  info: ProgrammeInfo;
  admin: Session;
  apiPid: number;
  log: (message: string) => void;
}): Promise<ResetScenario> {
  const { info, admin, databaseUrl } = options;
  const companyId = info.bigCompany.id;
  const catchUp = await admin.post<{ data: { runs: ResetRun[] } }>(
    '/api/v1/jobs/monthly-reset',
    {},
  );
  const { before, employees, active } = await withClient(databaseUrl, async (c) => {
    await c.query(
      `UPDATE companies SET next_reset_at = date_trunc('milliseconds', now()) - interval '1 second'
        WHERE id = $1`,
      [companyId],
    );
    await c.query('VACUUM (ANALYZE) employees');
    const counts = await c.query<{ employees: string; active: string }>(
      `SELECT count(*) AS employees, count(*) FILTER (WHERE status = 'active') AS active
         FROM employees WHERE company_id = $1`,
      [companyId],
    );
    const rows = await c.query<{ last: string }>(
      'SELECT coalesce(max(id), 0) AS last FROM token_transactions',
    );
    return {
      before: Number(rows.rows[0]!.last),
      employees: Number(counts.rows[0]!.employees),
      active: Number(counts.rows[0]!.active),
    };
  });

  const cpu = startCpuMeter(databaseName(databaseUrl), options.apiPid);
  const started = performance.now();
  const reset = await admin.post<{ data: { runs: ResetRun[] } }>('/api/v1/jobs/monthly-reset', {});
  const seconds = round((performance.now() - started) / 1000, 2);
  const cpuSeconds = cpu();
  const run = reset.data.runs.find((r) => r.company_id === companyId);
  const isApplied = run?.status === 'applied';
  if (!isApplied) options.log(`  the reset was not applied: ${JSON.stringify(reset.data.runs)}`);
  const written = await withClient(databaseUrl, async (c) => {
    const { rows } = await c.query<{ n: string }>(
      'SELECT count(*) AS n FROM token_transactions WHERE id > $1 AND company_id = $2',
      [before, companyId],
    );
    return Number(rows[0]!.n);
  });
  options.log(
    `  reset of ${employees.toLocaleString('en')} employees (${written.toLocaleString('en')} ledger rows): ${seconds} s ` +
      `(CPU: API ${cpuSeconds.api} s, database ${cpuSeconds.database} s)`,
  );
  return {
    companyId,
    employees,
    activeEmployees: active,
    period: run?.period ?? '',
    isApplied,
    seconds,
    ledgerRowsWritten: written,
    catchUpRuns: catchUp.data.runs.length,
    cpuSeconds,
  };
}
