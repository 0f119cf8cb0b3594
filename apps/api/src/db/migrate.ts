import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { queryRows, type Database } from './client';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_LOCK = 727_001;

export interface MigrationFile {
  version: string;
  sql: string;
}

/** Plain numbered SQL files: `0001_name.sql`, applied in order, each in its own transaction. */
export function readMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: f.replace(/\.sql$/, ''),
      sql: fs.readFileSync(path.join(dir, f), 'utf8'),
    }));
}

/**
 * Applies every pending migration. Several instances starting together take turns on an
 * advisory lock; a failing migration rolls back and throws, so the server does not start.
 */
export async function migrate(
  database: Database,
  migrations = readMigrations(),
): Promise<string[]> {
  return database.withAdvisoryLock(MIGRATION_LOCK, async (exec) => {
    await exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const applied = new Set(
      (
        await queryRows<{ version: string }>(database.db, 'SELECT version FROM schema_migrations')
      ).map((r) => r.version),
    );
    const done: string[] = [];
    for (const m of migrations) {
      if (applied.has(m.version)) continue;
      const version = m.version.replace(/'/g, "''");
      // No statement timeout inside a migration: the API's (30 s by default) is for requests, and a
      // migration that rebuilds from a large table (0010 on 11.7 million ledger rows) runs longer.
      await exec(
        `BEGIN;\nSET LOCAL statement_timeout = 0;\n${m.sql}\n;INSERT INTO schema_migrations (version) VALUES ('${version}');\nCOMMIT;`,
      ).catch(async (error: unknown) => {
        await exec('ROLLBACK').catch(() => undefined);
        throw new Error(`Migration ${m.version} failed: ${(error as Error).message}`, {
          cause: error,
        });
      });
      done.push(m.version);
    }
    return done;
  });
}
