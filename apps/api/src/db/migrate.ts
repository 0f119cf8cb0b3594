import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { API_ROOT } from '../config/locations';
import { queryRows, type Database } from './client';

const MIGRATIONS_DIR = path.join(API_ROOT, 'src', 'db', 'migrations');
/** The ledger's triggers and functions, as they are now (issue 13: one home for the ledger). */
export const DEFINITIONS_DIR = path.join(API_ROOT, 'src', 'modules', 'ledger', 'sql');
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

export interface DefinitionFile {
  name: string;
  sql: string;
  checksum: string;
}

/**
 * Repeatable definitions (Flyway's `R__` files): each file holds the current `CREATE OR REPLACE`
 * of some functions and triggers. Unlike a numbered migration it is edited in place; the migrator
 * runs it again whenever its checksum changes, after every numbered migration.
 */
export function readDefinitions(dir = DEFINITIONS_DIR): DefinitionFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => {
      const sql = fs.readFileSync(path.join(dir, f), 'utf8');
      const checksum = crypto.createHash('sha256').update(sql).digest('hex');
      return { name: f.replace(/\.sql$/, ''), sql, checksum };
    });
}

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Applies every pending migration, then every changed definition. Several instances starting together take turns on an
 * advisory lock; a failing migration rolls back and throws, so the server does not start.
 */
export async function migrate(
  database: Database,
  migrations = readMigrations(),
  definitions = readDefinitions(),
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

    await exec(`CREATE TABLE IF NOT EXISTS schema_definitions (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const current = new Map(
      (
        await queryRows<{ name: string; checksum: string }>(
          database.db,
          'SELECT name, checksum FROM schema_definitions',
        )
      ).map((r) => [r.name, r.checksum]),
    );
    for (const d of definitions) {
      if (current.get(d.name) === d.checksum) continue;
      await exec(
        `BEGIN;\nSET LOCAL statement_timeout = 0;\n${d.sql}\n;INSERT INTO schema_definitions (name, checksum) VALUES (${quote(d.name)}, ${quote(d.checksum)}) ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, applied_at = now();\nCOMMIT;`,
      ).catch(async (error: unknown) => {
        await exec('ROLLBACK').catch(() => undefined);
        throw new Error(`Definition ${d.name} failed: ${(error as Error).message}`, {
          cause: error,
        });
      });
      done.push(`definition ${d.name}`);
    }
    return done;
  });
}
