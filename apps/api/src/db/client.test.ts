// A PostgreSQL connection that loses its server while a transaction holds it (a failover, a
// terminated backend) must fail that transaction, not the process: pg emits 'error' on the client,
// and an 'error' event without a listener ends Node. The cluster test saw an API instance exit so.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../test/databases';
import { queryRows } from './client';

describe.each((await testDatabaseKinds()).filter((k) => k === 'postgres'))(
  'a connection lost while checked out, on %s',
  () => {
    let test: TestDatabase;
    beforeAll(async () => {
      test = await createTestDatabase('postgres');
    });
    afterAll(async () => {
      await test?.drop();
    });

    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);

    it('rejects the transaction holding it, keeps the process, and the next query works', async () => {
      process.prependListener('uncaughtException', onUncaught);
      try {
        const { db } = test.database;
        const held = db.transaction(async (tx) => {
          const [me] = await queryRows<{ pid: number }>(tx, sql`SELECT pg_backend_pid() AS pid`);
          // Another pool connection ends this one's backend while the transaction holds it idle.
          await queryRows(db, sql`SELECT pg_terminate_backend(${me!.pid})`);
          // Until the backend is gone, so the next statement meets a closed connection.
          await vi.waitFor(async () => {
            const left = await queryRows(
              db,
              sql`SELECT 1 FROM pg_stat_activity WHERE pid = ${me!.pid}`,
            );
            expect(left).toEqual([]);
          });
          await queryRows(tx, sql`SELECT 1`);
        });
        await expect(held).rejects.toThrow();
        // pg emits the client's 'error' in the turn that rejects its queries: one more turn and an
        // uncaught one would have been recorded.
        await new Promise(setImmediate);
        expect(uncaught).toEqual([]);
        const [row] = await queryRows<{ one: number }>(db, sql`SELECT 1 AS one`);
        expect(row!.one).toBe(1);
      } finally {
        process.removeListener('uncaughtException', onUncaught);
      }
    });

    it('does the same for the migration lock’s connection', async () => {
      process.prependListener('uncaughtException', onUncaught);
      try {
        const { database } = test;
        const locked = database.withAdvisoryLock(727_999, async (exec) => {
          await exec(
            'SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = $$advisory$$ AND objid = 727999',
          );
        });
        await expect(locked).rejects.toThrow();
        await new Promise(setImmediate);
        expect(uncaught).toEqual([]);
        expect(await database.ping()).toBe(true);
      } finally {
        process.removeListener('uncaughtException', onUncaught);
      }
    });
  },
);
