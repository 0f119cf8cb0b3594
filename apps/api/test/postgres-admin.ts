// The test run's PostgreSQL server, reached through its maintenance database. Imported by the
// global setup (test/global-setup.ts) as well as by test files, so it touches no Vitest state.
import pg from 'pg';

export const POSTGRES_ADMIN_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether the server answers within two seconds. */
export async function isPostgresReachable(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: POSTGRES_ADMIN_URL,
    connectionTimeoutMillis: 5_000,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs one statement on the maintenance database, in a connection of its own. */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * How long the suites' own test databases wait for a connection: two suites side by side on two
 * cores (npm test) can keep a new backend waiting past the servers' 5 s.
 */
export const TEST_CONNECT_TIMEOUT_MS = 30_000;

/** The URL of database `name` on the same server. */
export function postgresDatabaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
