/**
 * Scenario 2: the back-office's heavy reads at scale, one call at a time (so the figures are the
 * latency of one request, not of a queue): p50 and p95 over many calls of each.
 */
import { vacuumRollupQueue, withClient } from '../database';
import type { Session } from '../http';
import { runLoad } from '../load';
import type { ProgrammeInfo } from '../programme';

export interface ReadResult {
  name: string;
  path: string;
  as: string;
  calls: number;
  failed: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
}

/** The cursor of the last row of page `page` of the whole ledger (newest first, 20 a page). */
async function transactionsCursor(databaseUrl: string, page: number, limit: number) {
  return withClient(databaseUrl, async (c) => {
    const { rows } = await c.query<{ seq: string }>(
      `SELECT seq FROM token_transactions ORDER BY seq DESC OFFSET $1 LIMIT 1`,
      [(page - 1) * limit - 1],
    );
    const row = rows[0];
    if (!row) return undefined;
    // The API's own cursor format (transactions.service.ts): base64url of [seq].
    return Buffer.from(JSON.stringify([Number(row.seq)])).toString('base64url');
  });
}

export async function runReadScenario(options: {
  baseUrl: string;
  databaseUrl: string;
  info: ProgrammeInfo;
  admin: Session;
  companyAdmin: Session;
  calls: number;
  log: (message: string) => void;
}): Promise<ReadResult[]> {
  const { info, admin, companyAdmin } = options;
  await vacuumRollupQueue(options.databaseUrl);
  const big = info.bigCompany;
  const deepPage = info.ledgerRows > 400_000 ? 10_000 : 10;
  const cursor = await transactionsCursor(options.databaseUrl, deepPage, 20);
  const reads: { name: string; path: string; as: string; session: Session }[] = [
    { name: 'dashboard, all companies', path: '/api/v1/dashboard', as: 'admin', session: admin },
    {
      name: `dashboard, one company (${big.employees.toLocaleString('en')} employees)`,
      path: '/api/v1/dashboard',
      as: 'company admin',
      session: companyAdmin,
    },
    { name: 'dashboard summary', path: '/api/v1/dashboard/summary', as: 'admin', session: admin },
    {
      name: 'summary report',
      path: '/api/v1/reports/summary?page=1&page_size=20',
      as: 'admin',
      session: admin,
    },
    {
      name: 'transactions, first page',
      path: '/api/v1/tokens/transactions?limit=20',
      as: 'admin',
      session: admin,
    },
    {
      name: `transactions, page ${deepPage.toLocaleString('en')} by cursor`,
      path: `/api/v1/tokens/transactions?limit=20&cursor=${cursor}`,
      as: 'admin',
      session: admin,
    },
    {
      // A company wallet's rows come at the month's start and weeks of orders follow them: the
      // page the planner once found by reading the ledger backwards (decision 0063).
      name: `transactions, one company's wallet (${big.employees.toLocaleString('en')} employees)`,
      path: '/api/v1/tokens/transactions?scope=company&limit=20',
      as: 'company admin',
      session: companyAdmin,
    },
    {
      name: 'order history, first page',
      path: '/api/v1/orders/admin?page=1&page_size=20',
      as: 'admin',
      session: admin,
    },
    {
      name: `employee list with search (${big.employees.toLocaleString('en')} employees)`,
      path: `/api/v1/employees?company_id=${big.id}&search=ann&page=1&page_size=20`,
      as: 'admin',
      session: admin,
    },
  ];
  const results: ReadResult[] = [];
  for (const read of reads) {
    const url = `${options.baseUrl}${read.path}`;
    // Answers are checked once for shape, then timed.
    const first = await fetch(url, { headers: read.session.headers() });
    if (first.status !== 200) {
      throw new Error(`GET ${read.path}: ${first.status} ${(await first.text()).slice(0, 300)}`);
    }
    await first.arrayBuffer();
    await runLoad({
      url,
      method: 'GET',
      connections: 1,
      amount: Math.max(5, Math.floor(options.calls / 10)),
      headers: read.session.headers(),
      expectedStatus: 200,
    });
    const load = await runLoad({
      url,
      method: 'GET',
      connections: 1,
      amount: options.calls,
      headers: read.session.headers(),
      expectedStatus: 200,
    });
    const failed = load.requests - load.ok + load.errors;
    results.push({
      name: read.name,
      path: read.path,
      as: read.as,
      calls: load.requests,
      failed,
      latencyMs: load.latencyMs,
    });
    options.log(
      `  ${read.name}: p50 ${load.latencyMs.p50} ms, p95 ${load.latencyMs.p95} ms (${load.requests} calls${failed ? `, ${failed} failed` : ''})`,
    );
  }
  return results;
}
