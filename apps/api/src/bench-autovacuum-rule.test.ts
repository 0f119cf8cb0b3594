// The soak applies autovacuum's rule itself (bench/lib/database.ts, decision 0063), as the
// bench's server runs with autovacuum off: a table past the threshold is vacuumed, one below is not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFreshDatabase,
  dropDatabase,
  smokeDatabaseUrl,
  startAutovacuumRule,
  withClient,
} from '../../../bench/lib/database';
import { testDatabaseKinds } from '../test/databases';

const hasPostgres = (await testDatabaseKinds()).includes('postgres');

describe.runIf(hasPostgres)('autovacuum’s rule in the bench', () => {
  const url = smokeDatabaseUrl();
  beforeAll(() => createFreshDatabase(url), 60_000);
  afterAll(() => dropDatabase(url));

  const deadRows = (table: string) =>
    withClient(url, async (c) => {
      const { rows } = await c.query<{ n: string }>(
        'SELECT n_dead_tup AS n FROM pg_stat_user_tables WHERE relname = $1',
        [table],
      );
      return Number(rows[0]?.n ?? -1);
    });

  it('vacuums the tables whose dead rows pass the threshold, and no other', async () => {
    await withClient(url, async (c) => {
      await c.query('CREATE TABLE churn (id int PRIMARY KEY)');
      await c.query('CREATE TABLE calm (id int PRIMARY KEY)');
      await c.query('INSERT INTO churn SELECT g FROM generate_series(1, 1000) g');
      await c.query('INSERT INTO calm SELECT g FROM generate_series(1, 1000) g');
      // 1,000 dead of 0 live (threshold 50 + 0.2 × 0); 10 dead of 990 live (50 + 198).
      await c.query('DELETE FROM churn');
      await c.query('DELETE FROM calm WHERE id <= 10');
      // The session's counts reach the shared statistics before this statement's answer
      // (PostgreSQL 15: flushed when the session goes idle, forced here).
      await c.query('SELECT pg_stat_force_next_flush()');
    });
    expect(await deadRows('churn')).toBe(1000);

    const vacuumed = await startAutovacuumRule(url, 60_000)();
    expect(vacuumed).toEqual({ 'public.churn': 1 });
    expect(await deadRows('churn')).toBe(0);
    expect(await deadRows('calm')).toBe(10);
  });
});
