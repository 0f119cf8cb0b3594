import pg from 'pg';
import {
  createDatabase,
  type Database,
  migrate,
  assertLedgerInvariants,
  type LedgerSummary,
} from '@app/api/bench';

/** The benchmark's own database; the scripts create and drop it and touch no other. */
export const BENCH_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';

const NAME = /^[a-z_][a-z0-9_]*$/;

/** The database name of a URL, checked to be a plain identifier (it is spliced into DDL). */
export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!NAME.test(name)) throw new Error(`Not a plain database name: ${name}`);
  if (['postgres', 'template0', 'template1'].includes(name)) {
    throw new Error(`Refusing to use the ${name} database for a benchmark`);
  }
  return name;
}

/** The same server's maintenance database, for CREATE and DROP DATABASE. */
export function maintenanceUrl(url: string): string {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return admin.toString();
}

export async function withClient<T>(
  url: string,
  fn: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  await withClient(maintenanceUrl(url), (c) =>
    c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  );
}

/** Drops and re-creates the database, then applies the API's migrations to it. */
export async function createFreshDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  await withClient(maintenanceUrl(url), async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  await withApiDatabase(url, (database) => migrate(database));
}

/** The API's own database handle (Drizzle over a pg pool) on `url`. */
export async function withApiDatabase<T>(
  url: string,
  fn: (database: Database) => Promise<T>,
): Promise<T> {
  // Whole-database checks read millions of rows: no statement timeout here.
  const database = await createDatabase({ url, poolSize: 4, statementTimeoutMs: 0 });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

/** The six ledger invariants over the whole database (apps/api/test/invariants.ts). */
export async function checkInvariants(url: string): Promise<LedgerSummary & { seconds: number }> {
  const started = performance.now();
  const summary = await withApiDatabase(url, (database) => assertLedgerInvariants(database.db));
  return { ...summary, seconds: (performance.now() - started) / 1000 };
}

/** Size of the database on disk, in bytes. */
export async function databaseBytes(url: string): Promise<number> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ size: string }>(
      'SELECT pg_database_size(current_database()) AS size',
    );
    return Number(rows[0]!.size);
  });
}

export async function serverVersion(url: string): Promise<string> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ server_version: string }>('SHOW server_version');
    return rows[0]!.server_version;
  });
}

/** Settings that shape the figures, recorded beside them. */
export async function serverSettings(url: string): Promise<Record<string, string>> {
  return withClient(url, async (c) => {
    const names = [
      'max_connections',
      'shared_buffers',
      'work_mem',
      'synchronous_commit',
      'fsync',
      'max_parallel_workers_per_gather',
      'autovacuum',
    ];
    const { rows } = await c.query<{ name: string; value: string }>(
      'SELECT name, current_setting(name) AS value FROM unnest($1::text[]) AS name',
      [names],
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.value]));
  });
}

/** A fresh database name beside the test databases, for the CI smoke run of the bench. */
export function smokeDatabaseUrl(): string {
  const url = new URL(
    process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  url.pathname = `/bench_smoke_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  return url.toString();
}

/** The programme's description, kept with its data as the database's comment. */
export async function writeDatabaseComment(url: string, value: unknown): Promise<void> {
  const name = databaseName(url);
  const text = JSON.stringify(value).replace(/'/g, "''");
  await withClient(url, (c) => c.query(`COMMENT ON DATABASE ${name} IS '${text}'`));
}

export async function readDatabaseComment(url: string): Promise<unknown> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ comment: string | null }>(
      'SELECT shobj_description(oid, $1) AS comment FROM pg_database WHERE datname = current_database()',
      ['pg_database'],
    );
    const comment = rows[0]?.comment;
    return comment ? (JSON.parse(comment) as unknown) : undefined;
  });
}

/**
 * The rollups' queue (`ledger_rollup_pending`) as autovacuum would have kept it: every ledger
 * statement appends to it and every fold deletes what it folded, so it churns a row per order
 * batch, and the dashboards read it whole. The bench's server runs with autovacuum off; without
 * this its dead rows pile up over the runs (961,150 after a stop's order runs, 57 MB), and the
 * reads measure that pile instead of the code. FULL, because a plain VACUUM leaves the file at its
 * size, and a scan still reads every empty page; autovacuum, running all along, would never have
 * let it grow. The queue holds at most a few hundred live rows, so the rewrite takes milliseconds.
 */
export async function vacuumRollupQueue(url: string): Promise<void> {
  await withClient(url, (client) => client.query('VACUUM (FULL, ANALYZE) ledger_rollup_pending'));
}

/**
 * Autovacuum's rule, applied by the bench while a load runs (the soak): every `intervalMs`
 * (autovacuum's naptime, a minute), each table with more dead rows than the server's
 * `autovacuum_vacuum_threshold` + `autovacuum_vacuum_scale_factor` × its live rows is vacuumed, as
 * autovacuum would have done. The bench's server runs with autovacuum off, which no production
 * server does: the small tables every request rewrites (the sign-in throttle's and the rate
 * limits' counters, the rollups' queue, the companies) then kept every dead version of their few
 * rows for the whole run, and each read of them scanned the pile (decision 0063). Returns a stop
 * function that waits for a vacuum in progress, and the tables vacuumed, by name and times.
 */
export function startAutovacuumRule(
  url: string,
  intervalMs = 60_000,
): () => Promise<Record<string, number>> {
  const vacuumed: Record<string, number> = {};
  let current: Promise<void> = Promise.resolve();
  const sweep = () =>
    withClient(url, async (client) => {
      const due = await client.query<{ name: string }>(
        `SELECT format('%I.%I', schemaname, relname) AS name
           FROM pg_stat_user_tables
          WHERE n_dead_tup > current_setting('autovacuum_vacuum_threshold')::float8
                  + current_setting('autovacuum_vacuum_scale_factor')::float8 * n_live_tup
          ORDER BY n_dead_tup DESC`,
      );
      for (const { name } of due.rows) {
        await client.query(`VACUUM (ANALYZE) ${name}`);
        vacuumed[name] = (vacuumed[name] ?? 0) + 1;
      }
    });
  const tick = () => {
    // A failed sweep is said, and the next minute's tries again.
    current = current.then(sweep).catch((error: unknown) => {
      console.warn("autovacuum's rule:", error);
    });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return async () => {
    clearInterval(timer);
    await current;
    return vacuumed;
  };
}

/** The orders the database holds: a scenario's before and after, for the orders it created. */
export async function countOrders(client: pg.Client): Promise<number> {
  return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM orders')).rows[0]!.n);
}
