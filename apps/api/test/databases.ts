import crypto from 'node:crypto';
import fs from 'node:fs';
import { inject } from 'vitest';
import { createDatabase, queryRows, type Database } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import {
  adminQuery,
  isPostgresReachable,
  POSTGRES_ADMIN_URL,
  postgresDatabaseUrl,
  TEST_CONNECT_TIMEOUT_MS,
} from './postgres-admin';

export type TestDatabaseKind = 'pglite' | 'postgres';

let postgresAvailable: Promise<boolean> | undefined;
function isPostgresAvailable(): Promise<boolean> {
  postgresAvailable ??= isPostgresReachable();
  return postgresAvailable;
}

/**
 * The databases every server test runs on: PGlite always, PostgreSQL when reachable.
 * CI sets REQUIRE_POSTGRES=1 so a missing server fails instead of silently narrowing the run.
 */
export async function testDatabaseKinds(): Promise<TestDatabaseKind[]> {
  if (await isPostgresAvailable()) return ['pglite', 'postgres'];
  if (process.env.REQUIRE_POSTGRES === '1') {
    throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL}`);
  }
  return ['pglite'];
}

export interface TestDatabase {
  database: Database;
  /** Connection URL of the PostgreSQL test database (postgres kind only). */
  url: string | undefined;
  drop(): Promise<void>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The tarball of a migrated PGlite cluster (test/global-setup.ts). */
    pgliteTemplate: string;
    /** The name of a migrated PostgreSQL database to copy, or '' without one (test/global-setup.ts). */
    postgresTemplate: string;
  }
}

let pgliteTemplate: Blob | null | undefined;
/**
 * The migrated PGlite cluster that test/global-setup.ts dumped for this run, if any: starting from
 * it skips PGlite's initdb and the migrations, which cost seconds a database on two cores.
 */
function migratedPgliteTemplate(): Blob | null {
  if (pgliteTemplate === undefined) {
    let file: string | undefined;
    try {
      file = inject('pgliteTemplate');
    } catch {
      file = undefined; // outside a Vitest run (scripts, the bench)
    }
    pgliteTemplate = file && fs.existsSync(file) ? new Blob([fs.readFileSync(file)]) : null;
  }
  return pgliteTemplate;
}

/**
 * The migrated PostgreSQL database that test/global-setup.ts made for this run, if any: a copy
 * (`CREATE DATABASE … TEMPLATE`) takes a third of a second where the migrations take one and a half.
 */
function migratedPostgresTemplate(): string | null {
  try {
    return inject('postgresTemplate') || null;
  } catch {
    return null; // outside a Vitest run (scripts, the bench)
  }
}

/**
 * The shared buffers of a test's PGlite: setting up the cluster's 128MB cost about a quarter of
 * each instance's start-up (a run starts hundreds), for test databases of a few megabytes. A page
 * evicted from them goes to PGlite's in-memory file system, not to a disk.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

/** A fresh, migrated database of its own: an in-memory PGlite, or a new PostgreSQL database. */
export async function createTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const template = migratedPgliteTemplate();
    const database = await createDatabase({
      ...(template ? { loadDataDir: template } : {}),
      pgliteSharedBuffers: PGLITE_SHARED_BUFFERS,
    });
    if (!template) await migrate(database);
    return { database, url: undefined, drop: () => database.close() };
  }
  const name = `test_${Date.now()}_${crypto.randomBytes(4).toString('hex')}`;
  const template = migratedPostgresTemplate();
  await adminQuery(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(postgresDatabaseUrl(name));
  const database = await createDatabase({
    url: url.toString(),
    poolSize: 30,
    connectTimeoutMs: TEST_CONNECT_TIMEOUT_MS,
  });
  if (!template) await migrate(database);
  return {
    database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * Resolves once a statement of this PostgreSQL database waits on another transaction's lock (a
 * row, a key, a transaction id): how a race test knows its second writer has reached the first.
 */
export async function untilAStatementWaits(database: Database): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    const [row] = await queryRows<{ n: unknown }>(
      database.db,
      `SELECT count(*) AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (Number(row!.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no statement came to wait on the other transaction');
}
