// Each module's SQL has one home (issues 13 and 40): every function and trigger the database runs
// is the one written in modules/<module>/sql/*.sql, each in one file, and changing a file changes
// the database at the next start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../test/databases';
import { queryRows } from './client';
import { DEFINITION_MODULES, migrate, readDefinitions, readMigrations } from './migrate';

const FUNCTION =
  /CREATE OR REPLACE FUNCTION public\.(\w+)\([^)]*\)[\s\S]*?AS \$function\$([\s\S]*?)\$function\$/g;
const TRIGGER = /^CREATE OR REPLACE TRIGGER (\w+) [^;]*;$/gm;

/** Functions and triggers as the files define them, and the file that defines each. */
function declared() {
  const functions = new Map<string, string>();
  const triggers = new Map<string, string>();
  const files = new Map<string, string[]>();
  const definedIn = (name: string, file: string) =>
    files.set(name, [...(files.get(name) ?? []), file]);
  for (const file of readDefinitions()) {
    for (const [, name, body] of file.sql.matchAll(FUNCTION)) {
      functions.set(name!, body!);
      definedIn(`function ${name!}`, file.name);
    }
    for (const [statement, name] of file.sql.matchAll(TRIGGER)) {
      triggers.set(name!, statement);
      definedIn(`trigger ${name!}`, file.name);
    }
  }
  return { functions, triggers, files };
}

/** The triggers on the modules' tables and every function of theirs, as the database holds them. */
async function installed(test: TestDatabase) {
  const triggers = await queryRows<{ name: string; definition: string; fn: string }>(
    test.database.db,
    `SELECT t.tgname AS name, pg_get_triggerdef(t.oid) AS definition, p.proname AS fn
       FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
      WHERE NOT t.tgisinternal
        AND t.tgrelid IN ('token_transactions'::regclass, 'companies'::regclass,
                          'employees'::regclass, 'orders'::regclass,
                          'merchants'::regclass, 'terminals'::regclass, 'users'::regclass)`,
  );
  const functions = await queryRows<{ name: string; source: string }>(
    test.database.db,
    `SELECT p.proname AS name, p.prosrc AS source
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public' AND p.prolang = (SELECT oid FROM pg_language WHERE lanname IN ('plpgsql'))
         OR (n.nspname = 'public' AND p.proname IN ('terminal_key_answer', 'terminal_order_json',
                                                         'webhook_order_data', 'webhook_endpoints_for',
                                                         'spending_rules_for', 'spending_remaining_today',
                                                         'spending_spent_during', 'spending_judge'))`,
  );
  return { triggers, functions: new Map(functions.map((f) => [f.name, f.source])) };
}

describe.each(await testDatabaseKinds())("the modules' definitions on %s", (kind) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(() => test.drop());

  it("holds exactly the functions and triggers of every module's sql folder", async () => {
    const files = declared();
    const db = await installed(test);
    // Every module's folder is read, in the migrator's order, and each object is in one file.
    expect([...new Set(readDefinitions().map((d) => d.name.split('/')[0]))]).toEqual(
      DEFINITION_MODULES,
    );
    expect([...files.files].filter(([, where]) => where.length > 1)).toEqual([]);
    expect(files.functions.size).toBeGreaterThanOrEqual(8);
    for (const [name, body] of files.functions) {
      expect(db.functions.get(name), name).toBe(body);
    }
    // Every trigger on these tables is declared in a file, and as the file declares it.
    expect(db.triggers.map((t) => t.name).sort()).toEqual([...files.triggers.keys()].sort());
    for (const trigger of db.triggers) {
      const statement = trigger.definition.replace(/^CREATE TRIGGER/, 'CREATE OR REPLACE TRIGGER');
      expect(`${statement};`, trigger.name).toBe(files.triggers.get(trigger.name));
      expect(files.functions.has(trigger.fn), trigger.fn).toBe(true);
    }
    // Every PL/pgSQL function but the audit log's guard is some module's.
    const undeclared = [...db.functions.keys()].filter(
      (name) => !files.functions.has(name) && name !== 'audit_log_immutable',
    );
    expect(undeclared).toEqual([]);
  });

  it('applies a changed file at the next migration, and only then', async () => {
    const definitions = readDefinitions();
    const transfers = definitions.find((d) => d.name === 'ledger/transfers')!;
    const edited = {
      ...transfers,
      sql: transfers.sql.replace('RETURN NULL;', '-- edited\n  RETURN NULL;'),
      checksum: `${transfers.checksum}-edited`,
    };
    const others = definitions.filter((d) => d !== transfers);
    expect(await migrate(test.database, readMigrations(), [...others, edited])).toEqual([
      'definition ledger/transfers',
    ]);
    let db = await installed(test);
    expect(db.functions.get('token_transfers_balanced')).toContain('-- edited');
    // Unchanged: nothing to do.
    expect(await migrate(test.database, readMigrations(), [...others, edited])).toEqual([]);
    // The file as it is comes back.
    expect(await migrate(test.database)).toEqual(['definition ledger/transfers']);
    db = await installed(test);
    expect(db.functions.get('token_transfers_balanced')).not.toContain('-- edited');
  });

  it("upgrades a database migrated when every file was the ledger's", async () => {
    // The layout before issue 40: eight files of modules/ledger/sql, known by their bare names.
    const current = new Map(readDefinitions().map((d) => [d.name, d.sql]));
    const OLD_LAYOUT: Record<string, string[]> = {
      apply: ['ledger/apply'],
      distribution: ['ledger/distribution'],
      'employee-counts': ['employees/employee-counts'],
      guards: ['ledger/guards', 'employees/company-guards'],
      outbox: ['webhooks/outbox'],
      rollups: ['ledger/rollups'],
      'terminal-orders': ['ledger/terminal-orders', 'terminals/key-check', 'orders/keyed-orders'],
      transfers: ['ledger/transfers'],
    };
    const old = Object.entries(OLD_LAYOUT).map(([name, parts]) => {
      const sql = parts
        .map((part) => current.get(part)!.replaceAll('AS $function$', 'AS $function$\n-- old'))
        .join('\n');
      return { name, sql, checksum: `${name}-old` };
    });
    // Files added since that layout (issue 42's spending rules) are simply new to such a database.
    const SINCE = ['spending-judge/rules'];
    expect([...current.keys()].filter((k) => !SINCE.includes(k)).sort()).toEqual(
      Object.values(OLD_LAYOUT).flat().sort(),
    );
    await queryRows(test.database.db, 'DELETE FROM schema_definitions');
    expect(await migrate(test.database, readMigrations(), old)).toEqual(
      old.map((d) => `definition ${d.name}`),
    );
    expect((await installed(test)).functions.get('check_terminal_keys')).toContain('-- old');

    // Every file runs once under its module's name, in the migrator's order, then never again.
    expect(await migrate(test.database)).toEqual(
      readDefinitions().map((d) => `definition ${d.name}`),
    );
    expect(await migrate(test.database)).toEqual([]);
    const db = await installed(test);
    for (const [name, body] of declared().functions) {
      expect(db.functions.get(name), name).toBe(body);
    }
    expect(db.triggers.map((t) => t.name).sort()).toEqual([...declared().triggers.keys()].sort());
  });
});
