import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../test/databases';
import { createDatabase, queryRows, type Database } from './client';
import { migrate } from './migrate';

describe.each(await testDatabaseKinds())('migrations on %s', (kind) => {
  let test: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    test = await createTestDatabase(kind);
    // The API's pool cuts requests off at its statement timeout; a migration must not be.
    database =
      kind === 'postgres'
        ? await createDatabase({ url: test.url, poolSize: 2, statementTimeoutMs: 100 })
        : test.database;
  });
  afterAll(async () => {
    if (database !== test.database) await database.close();
    await test.drop();
  });

  it('runs a migration longer than the statement timeout to the end', async () => {
    const applied = await migrate(database, [
      {
        version: '9001_slow',
        sql: 'CREATE TABLE slow_migration AS SELECT 1 AS one, pg_sleep(0.3) IS NULL AS slept;',
      },
    ]);
    expect(applied).toEqual(['9001_slow']);
    const rows = await queryRows<{ one: number }>(database.db, 'SELECT one FROM slow_migration');
    expect(rows).toEqual([{ one: 1 }]);
  });

  // PGlite has no statement timeout (client.ts), so this holds for PostgreSQL alone.
  if (kind === 'postgres') {
    it('still applies the statement timeout to everything after the migration', async () => {
      await expect(queryRows(database.db, 'SELECT pg_sleep(0.3)')).rejects.toThrow();
    });
  }
});
