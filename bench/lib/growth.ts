/**
 * Issue 16's growth row: the reads of scenario 2, one call at a time, on the full programme (1×)
 * and on the same programme three times over in time (3×, `--size triple`), each against its own
 * API, one database after the other and then the other way round: p95 at 3× ÷ p95 at 1× for each
 * read, from the better of each database's two passes (a pass is about a minute, and one that met
 * a busy moment of the machine says nothing about the data).
 */
import { databaseName, withClient } from './database';
import { Session } from './http';
import { loadProgramme } from './saved-programme';
import { runReadScenario, type ReadResult } from './scenarios/reads';
import { startApi } from './server';
import { round } from './stats';

export const GROWTH_RATIO = 1.3;

/** What `npm run bench:growth` writes (bench/growth.json). */
export interface GrowthFile {
  ranAt: string;
  target: number;
  databases: Record<'one' | 'three', { database: string; ledgerRows: number; employees: number }>;
  /** Per read: p95 of each pass at 1× and 3×, and the ratio of the better of each. */
  reads: { name: string; p95Ms: { one: number[]; three: number[] }; ratio: number }[];
  worst: { name: string; ratio: number };
}

async function passOn(url: string, calls: number, log: (m: string) => void) {
  const { info } = await loadProgramme(url);
  const server = await startApi({
    databaseUrl: url,
    admin: { username: info.admin, password: info.password },
  });
  try {
    const admin = await Session.signIn(server.baseUrl, info.admin, info.password);
    const companyAdmin = await Session.signIn(server.baseUrl, info.bigCompany.admin, info.password);
    return await runReadScenario({
      baseUrl: server.baseUrl,
      databaseUrl: url,
      info,
      admin,
      companyAdmin,
      calls,
      log,
    });
  } finally {
    await server.stop();
  }
}

async function sizeOf(url: string) {
  return withClient(url, async (c) => {
    // The planner's estimate: an exact count of 35 M rows takes longer than the reads.
    const { rows } = await c.query<{ ledger: string; employees: string }>(
      `SELECT (SELECT greatest(reltuples, 0)::bigint FROM pg_class
                WHERE oid = 'token_transactions'::regclass) AS ledger,
              (SELECT count(*) FROM employees) AS employees`,
    );
    return {
      database: databaseName(url),
      ledgerRows: Number(rows[0]!.ledger),
      employees: Number(rows[0]!.employees),
    };
  });
}

export async function runGrowth(options: {
  one: string;
  three: string;
  calls: number;
  /** Passes on each database: 2 (1×, 3×, 3×, 1×), or 1 (1×, 3×: the smoke test). */
  passesEach?: 1 | 2;
  log: (message: string) => void;
}): Promise<GrowthFile> {
  const { log } = options;
  const databases = { one: await sizeOf(options.one), three: await sizeOf(options.three) };
  const passes: Record<'one' | 'three', ReadResult[][]> = { one: [], three: [] };
  const order = (['one', 'three', 'three', 'one'] as const).slice(0, (options.passesEach ?? 2) * 2);
  for (const which of order) {
    log(`${which === 'one' ? '1×' : '3×'}: ${databases[which].database}`);
    passes[which].push(await passOn(options[which], options.calls, log));
  }
  const reads = passes.one[0]!.map((read, i) => {
    const p95 = (which: 'one' | 'three') => passes[which].map((pass) => pass[i]!.latencyMs.p95);
    const ratio = round(Math.min(...p95('three')) / Math.min(...p95('one')), 2);
    return { name: read.name, p95Ms: { one: p95('one'), three: p95('three') }, ratio };
  });
  const worst = reads.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  return {
    ranAt: new Date().toISOString(),
    target: GROWTH_RATIO,
    databases,
    reads,
    worst: { name: worst.name, ratio: worst.ratio },
  };
}
