// The terminal key check in a batch (group commit, decision 0034): each request of one statement
// is answered as if it had come alone — its terminal, its count against the key's per-minute
// window, its address's wrong keys — on PostgreSQL and PGlite; and, a rate-limit counter being
// all it writes, its commit does not wait for the disk.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { testDatabaseKinds } from '../../../test/databases';
import { newTerminal, type TestTerminal } from '../../../test/ledger';
import { queryRows, type Executor } from '../../db/client';
import { checkTerminalKeyHashes, checkTerminalKeyHash } from './terminals.repository';
import { hashTerminalKey } from './terminal-keys';
import { recordWrongTerminalKey } from './terminal-sessions.service';
import { setTerminalStatus } from './terminals.service';

const MINUTE = 60_000;
const MAX_WRONG = 3;

describe.each(await testDatabaseKinds())('terminal key checks in one batch on %s', (kind) => {
  let t: TestApp;
  let busy: TestTerminal;
  let quiet: TestTerminal;
  let off: TestTerminal;

  const check = (key: string, ip = '10.0.0.1') => ({
    hash: hashTerminalKey(key),
    now: t.clock.now(),
    windowMs: MINUTE,
    wrongKeysKey: `terminal-key-failures:${ip}`,
    maxWrongKeys: MAX_WRONG,
  });
  const summary = (r: Awaited<ReturnType<typeof checkTerminalKeyHash>>) => ({
    terminal: r.terminal?.id ?? null,
    status: r.terminal?.status ?? null,
    hits: r.keyUse?.hits ?? null,
    wrong: r.wrongKeys?.hits ?? null,
  });

  beforeAll(async () => {
    t = await createTestApp(kind);
    busy = await newTerminal(t.app.deps);
    quiet = await newTerminal(t.app.deps);
    off = await newTerminal(t.app.deps);
    await setTerminalStatus(t.app.deps, off.identity.id, 'inactive');
  });
  afterAll(() => t.close());

  it('answers each request as if alone: its terminal, its own count, its address shut out or not', async () => {
    const db = t.app.deps.database.db;
    // An address that has presented too many wrong keys this minute.
    for (let i = 0; i < MAX_WRONG; i += 1) {
      await recordWrongTerminalKey(db, { ip: '10.6.6.6', now: t.clock.now() });
    }
    // The busy key was used twice before this batch.
    await checkTerminalKeyHash(db, check(busy.key));
    await checkTerminalKeyHash(db, check(busy.key));
    const batch = await checkTerminalKeyHashes(db, [
      check(busy.key),
      check('tk_unknown-key-0000000000'),
      check(quiet.key),
      check(busy.key),
      check(off.key),
      check(busy.key, '10.6.6.6'),
      check(busy.key),
    ]);
    expect(batch.map(summary)).toEqual([
      { terminal: busy.identity.id, status: 'active', hits: 3, wrong: null },
      { terminal: null, status: null, hits: null, wrong: null },
      { terminal: quiet.identity.id, status: 'active', hits: 1, wrong: null },
      { terminal: busy.identity.id, status: 'active', hits: 4, wrong: null },
      // Counted like any other request; the plugin refuses it as TERMINAL_INACTIVE.
      { terminal: off.identity.id, status: 'inactive', hits: 1, wrong: null },
      // From the shut-out address: found and counted like any other (decision 0070: a valid key
      // passes whatever other keys its address presented; the address's count is still told).
      { terminal: busy.identity.id, status: 'active', hits: 5, wrong: MAX_WRONG },
      { terminal: busy.identity.id, status: 'active', hits: 6, wrong: null },
    ]);
    // Alone again, the count goes on from the batch's; past the window it starts over.
    expect(summary(await checkTerminalKeyHash(db, check(busy.key))).hits).toBe(7);
    t.clock.advance(MINUTE);
    const next = await checkTerminalKeyHashes(db, [check(busy.key), check(busy.key)]);
    expect(next.map((r) => r.keyUse?.hits)).toEqual([1, 2]);
    expect(next.map((r) => r.wrongKeys)).toEqual([null, null]);
    expect(next[0]!.keyUse!.retryAfterSeconds).toBe(60);
  });

  it('commits its counter without waiting for the disk, in its own transaction only', async () => {
    const setting = async (executor: Executor) =>
      (
        await queryRows<{ value: string }>(
          executor,
          sql`SELECT current_setting('synchronous_commit') AS value`,
        )
      )[0]!.value;
    const relaxed = await t.app.deps.database.db.transaction(async (tx) => {
      const before = await setting(tx);
      await checkTerminalKeyHash(tx, check(quiet.key));
      const single = await setting(tx);
      await checkTerminalKeyHashes(tx, [check(quiet.key), check(busy.key)]);
      return { before, single, batch: await setting(tx) };
    });
    expect(relaxed).toEqual({ before: 'on', single: 'off', batch: 'off' });
    // Local to that transaction: the connection, back in the pool, commits durably again.
    await checkTerminalKeyHash(t.app.deps.database.db, check(quiet.key));
    expect(await setting(t.app.deps.database.db)).toBe('on');
  });
});
