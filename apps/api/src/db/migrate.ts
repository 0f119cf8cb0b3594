import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { API_ROOT } from '../config/locations';
import { queryRows, type Database } from './client';

const MIGRATIONS_DIR = path.join(API_ROOT, 'src', 'db', 'migrations');
/** Each module's triggers and functions, as they are now, in `modules/<module>/sql/*.sql` (issue 40). */
export const MODULES_DIR = path.join(API_ROOT, 'src', 'modules');
/**
 * The modules that hold SQL, in the order their definitions are applied: each after the modules
 * whose functions its SQL calls, which are modules it imports (sql-ownership.test.ts checks both).
 * A trigger's function sits in the trigger's own file, so a file never waits for a later one.
 */
export const DEFINITION_MODULES = [
  'webhooks',
  'spending-judge',
  'ledger',
  'employees',
  'terminals',
  'orders',
];
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
 * of some functions and triggers of its module. Unlike a numbered migration it is edited in place;
 * the migrator runs it again whenever its checksum changes, after every numbered migration. A
 * file is named `<module>/<file>` (`ledger/apply`), module by module in `order`, then by file
 * name; a module folder with SQL that `order` does not list is an error, not a file left out.
 */
export function readDefinitions(
  modulesDir = MODULES_DIR,
  order: readonly string[] = DEFINITION_MODULES,
): DefinitionFile[] {
  const withSql = fs
    .readdirSync(modulesDir)
    .filter((m) => fs.existsSync(path.join(modulesDir, m, 'sql')))
    .sort();
  const unordered = withSql.filter((m) => !order.includes(m));
  const missing = order.filter((m) => !withSql.includes(m));
  if (unordered.length > 0 || missing.length > 0) {
    throw new Error(
      `The modules with SQL (${withSql.join(', ')}) are not those ordered for the migrator (${order.join(', ')})`,
    );
  }
  return order.flatMap((module) => {
    const dir = path.join(modulesDir, module, 'sql');
    return fs
      .readdirSync(dir)
      .filter((f) => /^[\w-]+\.sql$/.test(f))
      .sort()
      .map((f) => {
        const sql = fs.readFileSync(path.join(dir, f), 'utf8');
        const checksum = crypto.createHash('sha256').update(sql).digest('hex');
        return { name: `${module}/${f.replace(/\.sql$/, '')}`, sql, checksum };
      });
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
    // A database migrated before issue 40 knows the files by their bare names (`apply`): each file
    // then runs once more under its module's name, the same `CREATE OR REPLACE`s, and the old rows
    // are left as they were (an instance of the old version starting meanwhile still finds its own).
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
