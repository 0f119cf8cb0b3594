import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, type Database } from '../src/db/client';
import { migrate } from '../src/db/migrate';

export type TestDatabaseKind = 'pglite' | 'postgres';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let postgresAvailable: Promise<boolean> | undefined;
async function isPostgresAvailable(): Promise<boolean> {
  postgresAvailable ??= (async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return postgresAvailable;
}

/**
 * The databases every server test runs on: PGlite always, PostgreSQL when reachable.
 * CI sets REQUIRE_POSTGRES=1 so a missing server fails instead of silently narrowing the run.
 */
export async function testDatabaseKinds(): Promise<TestDatabaseKind[]> {
  if (await isPostgresAvailable()) return ['pglite', 'postgres'];
  if (process.env.REQUIRE_POSTGRES === '1') {
    throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL is not reachable at ${ADMIN_URL}`);
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

/** A fresh, migrated database of its own: an in-memory PGlite, or a new PostgreSQL database. */
export async function createTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const template = migratedPgliteTemplate();
    const database = await createDatabase(template ? { loadDataDir: template } : {});
    if (!template) await migrate(database);
    return { database, url: undefined, drop: () => database.close() };
  }
  const name = `test_${Date.now()}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await createDatabase({ url: url.toString(), poolSize: 30 });
  await migrate(database);
  return {
    database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: ADMIN_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
