/**
 * Scenario 3: a company admin previews, then imports, an employee CSV of `rows` rows into a
 * company made for the run (so every run imports the same file the same way: all rows new).
 * Afterwards the run's employees are deleted again (they hold no ledger rows), so that every
 * scenario after it, and the next run, reads the generated programme and not a table grown by
 * 100,000 rows per run (stop 35: three runs grew it to 500,000 and doubled the soak's tail).
 */
import { startCpuMeter, type CpuSeconds } from '../cpu';
import { databaseName, withClient } from '../database';
import { Session } from '../http';
import { BENCH_PASSWORD } from '../programme';
import { round } from '../stats';

export interface ImportScenario {
  rows: number;
  fileBytes: number;
  previewSeconds: number | null;
  importSeconds: number | null;
  totalSeconds: number | null;
  summary: Record<string, number> | null;
  result: Record<string, number> | null;
  /** Why the file was refused, when it was. */
  refused?: string;
  /** CPU seconds of the API and of the database's processes during preview + import. */
  cpuSeconds?: CpuSeconds;
  /**
   * Seconds from the import's answer until the search index's pending list was empty: the merge
   * the API runs after the commit (decision 0066), outside the admin's wait and the target. Null
   * when pgstattuple, which reads the list, is not installed.
   */
  searchIndexMergedAfter?: number | null;
}

export function employeeCsv(rows: number, code: string): string {
  const domain = `${code.toLowerCase()}.bench.example`;
  const lines = ['employee_id,email,name,status'];
  for (let i = 1; i <= rows; i += 1) {
    const staff = `I${String(i).padStart(7, '0')}`;
    lines.push(`${staff},${staff.toLowerCase()}@${domain},Imported Person ${i},active`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

export async function runImportScenario(options: {
  baseUrl: string;
  databaseUrl: string;
  apiPid: number;
  admin: Session;
  rows: number;
  log: (message: string) => void;
}): Promise<ImportScenario> {
  const { admin, rows } = options;
  const code = `IMP${Date.now().toString(36).toUpperCase()}`.slice(0, 12);
  const company = await admin.post<{ data: { id: number } }>('/api/v1/companies', {
    code,
    name: `Import ${code}`,
    status: 'active',
    monthly_reset_day: 1,
    init_token: 0,
  });
  const username = `imp.${code.toLowerCase()}`;
  await admin.post('/api/v1/companies/admin', {
    company_id: company.data.id,
    username,
    email: `${username}@bench.example`,
    password: BENCH_PASSWORD,
    confirm_password: BENCH_PASSWORD,
    status: 'active',
  });
  const companyAdmin = await Session.signIn(options.baseUrl, username, BENCH_PASSWORD);
  const csv = Buffer.from(employeeCsv(rows, code));
  const form = () => {
    const data = new FormData();
    data.append('file', new Blob([csv], { type: 'text/csv' }), 'employees.csv');
    return data;
  };

  const cpu = startCpuMeter(databaseName(options.databaseUrl), options.apiPid);
  const started = performance.now();
  let previewed = started;
  try {
    const preview = await companyAdmin.post<{ data: { summary: Record<string, number> } }>(
      '/api/v1/employees/import/preview',
      form(),
    );
    previewed = performance.now();
    options.log(
      `  preview of ${rows.toLocaleString('en')} rows: ${round((previewed - started) / 1000, 2)} s`,
    );
    const imported = await companyAdmin.post<{ data: Record<string, unknown> }>(
      '/api/v1/employees/import',
      form(),
    );
    const done = performance.now();
    const cpuSeconds = cpu();
    options.log(
      `  import: ${round((done - previewed) / 1000, 2)} s (CPU of both: API ${cpuSeconds.api} s, database ${cpuSeconds.database} s)`,
    );
    const merged = await searchIndexMerged(options.databaseUrl, done);
    if (merged !== null) {
      options.log(`  search index merged ${merged} s after the answer (not part of the target)`);
    }
    await removeImported(options.databaseUrl, company.data.id);
    const result = Object.fromEntries(
      Object.entries(imported.data).filter(([, v]) => typeof v === 'number'),
    ) as Record<string, number>;
    return {
      rows,
      fileBytes: csv.length,
      previewSeconds: round((previewed - started) / 1000, 2),
      importSeconds: round((done - previewed) / 1000, 2),
      totalSeconds: round((done - started) / 1000, 2),
      summary: preview.data.summary,
      result,
      cpuSeconds,
      searchIndexMergedAfter: merged,
    };
  } catch (error) {
    await removeImported(options.databaseUrl, company.data.id);
    const refused = (error as Error).message;
    if (!/ 413 /.test(refused)) throw error;
    options.log(`  refused: ${refused}`);
    return {
      rows,
      fileBytes: csv.length,
      previewSeconds: null,
      importSeconds: null,
      totalSeconds: null,
      summary: null,
      result: null,
      refused,
    };
  }
}

/** Seconds after `since` at which the employee search index's pending list was empty. */
async function searchIndexMerged(databaseUrl: string, since: number): Promise<number | null> {
  return withClient(databaseUrl, async (c) => {
    try {
      await c.query('CREATE EXTENSION IF NOT EXISTS pgstattuple');
    } catch {
      return null;
    }
    for (;;) {
      const { rows } = await c.query<{ pages: number }>(
        "SELECT pending_pages AS pages FROM pgstatginindex('employees_search_idx')",
      );
      if (Number(rows[0]!.pages) === 0) return round((performance.now() - since) / 1000, 2);
      if (performance.now() - since > 120_000) throw new Error('the search index was not merged');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });
}

/** Deletes the run's employees (untimed) and vacuums the table, as if the run had not grown it. */
async function removeImported(databaseUrl: string, companyId: number): Promise<void> {
  await withClient(databaseUrl, async (c) => {
    await c.query('DELETE FROM employees WHERE company_id = $1', [companyId]);
    await c.query('VACUUM (ANALYZE) employees');
  });
}
