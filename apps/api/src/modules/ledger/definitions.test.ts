// The ledger's one home (issue 13): every ledger function and trigger the database runs is the one
// written in modules/ledger/sql/*.sql, and changing a file changes the database at the next start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { queryRows } from '../../db/client';
import { migrate, readDefinitions, readMigrations } from '../../db/migrate';

const FUNCTION =
  /CREATE OR REPLACE FUNCTION public\.(\w+)\([^)]*\)[\s\S]*?AS \$function\$([\s\S]*?)\$function\$/g;
const TRIGGER = /^CREATE OR REPLACE TRIGGER (\w+) [^;]*;$/gm;

/** Functions and triggers as the files define them. */
function declared() {
  const functions = new Map<string, string>();
  const triggers = new Map<string, string>();
  for (const file of readDefinitions()) {
    for (const [, name, body] of file.sql.matchAll(FUNCTION)) functions.set(name!, body!);
    for (const [statement, name] of file.sql.matchAll(TRIGGER)) triggers.set(name!, statement);
  }
  return { functions, triggers };
}

/** The ledger tables' triggers and their functions, as the database holds them. */
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
                                                         'webhook_order_data', 'webhook_endpoints_for'))`,
  );
  return { triggers, functions: new Map(functions.map((f) => [f.name, f.source])) };
}

describe.each(await testDatabaseKinds())('the ledger definitions on %s', (kind) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(() => test.drop());

  it('holds exactly the functions and triggers of modules/ledger/sql', async () => {
    const files = declared();
    const db = await installed(test);
    expect(files.functions.size).toBeGreaterThanOrEqual(8);
    for (const [name, body] of files.functions) {
      expect(db.functions.get(name), name).toBe(body);
    }
    // Every trigger on a ledger table is declared in a file, and as the file declares it.
    expect(db.triggers.map((t) => t.name).sort()).toEqual([...files.triggers.keys()].sort());
    for (const trigger of db.triggers) {
      const statement = trigger.definition.replace(/^CREATE TRIGGER/, 'CREATE OR REPLACE TRIGGER');
      expect(`${statement};`, trigger.name).toBe(files.triggers.get(trigger.name));
      expect(files.functions.has(trigger.fn), trigger.fn).toBe(true);
    }
    // Every PL/pgSQL function but the audit log's guard is the ledger's.
    const undeclared = [...db.functions.keys()].filter(
      (name) => !files.functions.has(name) && name !== 'audit_log_immutable',
    );
    expect(undeclared).toEqual([]);
  });

  it('applies a changed file at the next migration, and only then', async () => {
    const definitions = readDefinitions();
    const transfers = definitions.find((d) => d.name === 'transfers')!;
    const edited = {
      ...transfers,
      sql: transfers.sql.replace('RETURN NULL;', '-- edited\n  RETURN NULL;'),
      checksum: `${transfers.checksum}-edited`,
    };
    const others = definitions.filter((d) => d !== transfers);
    expect(await migrate(test.database, readMigrations(), [...others, edited])).toEqual([
      'definition transfers',
    ]);
    let db = await installed(test);
    expect(db.functions.get('token_transfers_balanced')).toContain('-- edited');
    // Unchanged: nothing to do.
    expect(await migrate(test.database, readMigrations(), [...others, edited])).toEqual([]);
    // The file as it is comes back.
    expect(await migrate(test.database)).toEqual(['definition transfers']);
    db = await installed(test);
    expect(db.functions.get('token_transfers_balanced')).not.toContain('-- edited');
  });
});
