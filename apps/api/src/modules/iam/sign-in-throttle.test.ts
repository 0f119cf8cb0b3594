// Sign-in protection (issue 14, DESIGN 4.1, decision 0014): a wrong password answers the same for
// an existing and an unknown username, whatever the count; waits double past the free failures of
// a (username, address) and, more loosely, of an address; a stranger's failures never hold back the
// owner from another address; counters live in PostgreSQL, shared by every instance; an
// administrator can clear a user's throttle; sign-ins, failures and throttling are audited.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecondInstance, createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, signIn } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { envelopeProblem } from '../../../test/http';
import { queryRows } from '../../db/client';
import { sweepExpiredCounters } from '../jobs';
import { clearSignInFailures } from './sign-in-throttle.service';

const FREE = 5;
const ADDRESS_FREE = 20;
const MINUTE = 60_000;
const ENV = {
  SIGN_IN_FREE_FAILURES: String(FREE),
  SIGN_IN_ADDRESS_FREE_FAILURES: String(ADDRESS_FREE),
  SIGN_IN_MAX_DELAY_SECONDS: '900',
  SIGN_IN_FAILURE_MEMORY_MINUTES: '60',
};
const WRONG = 'Wrong-Passw0rd!';

const login = (t: TestApp, username: string, password: string, remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/iam/login',
    remoteAddress,
    payload: { username, password },
  });

interface Answer {
  status: number;
  body: string;
  retryAfter: string | undefined;
}
const answerOf = (res: Awaited<ReturnType<typeof login>>): Answer => ({
  status: res.statusCode,
  body: res.body,
  retryAfter: res.headers['retry-after'] as string | undefined,
});

/**
 * `count` wrong passwords for `username` from `address`; after each 429 the clock moves on by its
 * Retry-After, so the doubling waits show.
 */
async function failRepeatedly(
  t: TestApp,
  username: string,
  address: string,
  count: number,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i += 1) {
    const answer = answerOf(await login(t, username, WRONG, address));
    answers.push(answer);
    if (answer.status === 429) t.clock.advance(Number(answer.retryAfter) * 1000);
  }
  return answers;
}

describe.each(await testDatabaseKinds())('sign-in throttle on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, ENV);
  });
  afterAll(() => t.close());
  const db = () => t.db.database.db;

  it('answers 20 wrong passwords alike for an existing and an unknown username, waits doubling', async () => {
    const user = await createUser(db(), { type: 'admin' });
    const existing = await failRepeatedly(t, user.username, '10.1.0.1', 20);
    const unknown = await failRepeatedly(t, 'no.such.user', '10.1.0.2', 20);

    // Byte-identical: status, body and Retry-After, attempt by attempt.
    expect(unknown).toEqual(existing);
    expect(existing.map((a) => a.status)).toEqual([
      ...Array<number>(FREE + 1).fill(401),
      ...Array.from({ length: 7 }, () => [429, 401]).flat(),
    ]);
    expect(existing.filter((a) => a.status === 429).map((a) => Number(a.retryAfter))).toEqual([
      1, 2, 4, 8, 16, 32, 64,
    ]);
    const invalid = existing.find((a) => a.status === 401)!;
    expect(JSON.parse(invalid.body)).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      code: 'INVALID_CREDENTIALS',
      message: 'Incorrect username or password.',
    });
    expect(invalid.retryAfter).toBeUndefined();
    const throttled = await login(t, user.username, WRONG, '10.1.0.1');
    expect(throttled.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(envelopeProblem(throttled)).toBeNull();
    // The right password waits too: a throttled attempt checks nothing.
    expect((await login(t, user.username, user.password, '10.1.0.1')).statusCode).toBe(429);
    t.clock.advance(16 * MINUTE);
    expect((await login(t, user.username, user.password, '10.1.0.1')).statusCode).toBe(200);
  });

  it('caps the wait at SIGN_IN_MAX_DELAY_SECONDS', async () => {
    const answers = await failRepeatedly(t, 'capped.user', '10.1.1.1', 2 * (FREE + 14));
    const waits = answers.filter((a) => a.status === 429).map((a) => Number(a.retryAfter));
    expect(Math.max(...waits)).toBe(900);
    expect(waits.slice(-3)).toEqual([900, 900, 900]);
  });

  it("lets the owner sign in from another address at once after a stranger's 8 failures", async () => {
    const owner = await createUser(db(), { type: 'admin' });
    const stranger = await failRepeatedly(t, owner.username, '10.2.0.66', 8);
    expect(stranger.map((a) => a.status)).toContain(429);
    // The stranger's address is held back, even with the right password...
    expect((await login(t, owner.username, owner.password, '10.2.0.66')).statusCode).toBe(429);
    // ...the owner's is not.
    expect((await login(t, owner.username, owner.password, '10.2.0.7')).statusCode).toBe(200);
  });

  it('holds back wrong passwords of one address spraying many usernames, more loosely, and no other address', async () => {
    const user = await createUser(db(), { type: 'admin' });
    for (let i = 0; i <= ADDRESS_FREE; i += 1) {
      expect((await login(t, `spray.${i}`, WRONG, '10.3.0.1')).statusCode).toBe(401);
    }
    const next = await login(t, 'spray.fresh', WRONG, '10.3.0.1');
    expect(next.statusCode).toBe(429);
    expect(next.headers['retry-after']).toBe('1');
    // The address's failures alone never refuse a right password (decision 0070).
    expect((await login(t, user.username, user.password, '10.3.0.1')).statusCode).toBe(200);
    expect((await login(t, user.username, WRONG, '10.3.0.1')).statusCode).toBe(429);
    expect((await login(t, user.username, WRONG, '10.3.0.2')).statusCode).toBe(401);
    expect((await login(t, user.username, user.password, '10.3.0.2')).statusCode).toBe(200);
  });

  // Issue 39 item 4 (decision 0070): an outsider behind the office's address does not lock its
  // owners out.
  describe("an address's failures never refuse an owner's right password", () => {
    const audited = async (address: string) =>
      (
        await queryRows<{ action: string; n: number }>(
          db(),
          sql`SELECT action, count(*)::int AS n FROM audit_log WHERE ip = ${address}
               GROUP BY action ORDER BY action`,
        )
      ).map((r) => [r.action, r.n]);

    it('40 wrong sign-ins from one address, then the owner’s right password from it: 200', async () => {
      const owner = await createUser(db(), { type: 'super_hr' });
      const address = '10.11.0.1';
      const answers: Answer[] = [];
      for (let i = 0; i < 40; i += 1) {
        answers.push(answerOf(await login(t, `stuffed.${i}`, WRONG, address)));
      }
      expect(answers.map((a) => a.status)).toEqual([
        ...Array<number>(ADDRESS_FREE + 1).fill(401),
        ...Array<number>(40 - ADDRESS_FREE - 1).fill(429),
      ]);
      expect(new Set(answers.slice(ADDRESS_FREE + 1).map((a) => a.retryAfter))).toEqual(
        new Set(['1']),
      );

      const signedIn = await login(t, owner.username, owner.password, address);
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(signedIn.json().data.user).toMatchObject({ user_id: owner.id });
      // The success cleared nothing of the address's: wrong passwords still wait, and answer
      // alike for the owner's username and an unknown one (status, body, Retry-After).
      const ownersWrong = answerOf(await login(t, owner.username, WRONG, address));
      const strangersWrong = answerOf(await login(t, 'stuffed.more', WRONG, address));
      expect(ownersWrong).toEqual(strangersWrong);
      expect(ownersWrong).toMatchObject({ status: 429, retryAfter: '1' });
      expect(JSON.parse(ownersWrong.body)).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
      // Wrong passwords during the wait were checked (not merely throttled) and are audited so.
      expect(await audited(address)).toEqual([
        ['sign_in', 1],
        ['sign_in_failed', 42],
      ]);
    });

    it('keeps doubling the wait for wrong passwords; a success neither clears nor restarts it', async () => {
      const owner = await createUser(db(), { type: 'super_hr' });
      const address = '10.11.1.1';
      const answers: Answer[] = [];
      for (let i = 0; i < 40; i += 1) {
        const answer = answerOf(await login(t, `doubled.${i}`, WRONG, address));
        answers.push(answer);
        // The owner signs in, right password, whatever the address's state.
        expect((await login(t, owner.username, owner.password, address)).statusCode).toBe(200);
        if (answer.status === 429) t.clock.advance(Number(answer.retryAfter) * 1000);
      }
      // As without the owner's sign-ins: past the address's free failures, each wrong password
      // made outside a wait doubles it, 1 s, 2 s, 4 s … (the owner's 40 successes restarted none).
      expect(answers.map((a) => a.status)).toEqual([
        ...Array<number>(ADDRESS_FREE + 1).fill(401),
        ...Array.from({ length: 10 }, () => [429, 401])
          .flat()
          .slice(0, 40 - ADDRESS_FREE - 1),
      ]);
      expect(answers.filter((a) => a.status === 429).map((a) => Number(a.retryAfter))).toEqual([
        1, 2, 4, 8, 16, 32, 64, 128, 256, 512,
      ]);
      // One more wrong password starts the longest wait (900 s, the cap).
      expect((await login(t, 'doubled.last', WRONG, address)).statusCode).toBe(401);
      t.clock.advance(100_000);
      expect((await login(t, owner.username, owner.password, address)).statusCode).toBe(200);
      // Not restarted by that success: 800 s are left.
      const after = await login(t, 'doubled.next', WRONG, address);
      expect(after.statusCode).toBe(429);
      expect(after.headers['retry-after']).toBe('800');
    });

    it('still holds back every password of a login guessed from the same address', async () => {
      const owner = await createUser(db(), { type: 'super_hr' });
      const answers = await failRepeatedly(t, owner.username, '10.11.2.1', FREE + 1);
      expect(answers.map((a) => a.status)).toEqual(Array<number>(FREE + 1).fill(401));
      // The (username, address) wait holds back the right password too, unchecked.
      const held = await login(t, owner.username, owner.password, '10.11.2.1');
      expect(held.statusCode).toBe(429);
      expect(held.headers['retry-after']).toBe('1');
    });
  });

  it('clears the (username, address) counter on a successful sign-in', async () => {
    const user = await createUser(db(), { type: 'admin' });
    for (let i = 0; i < FREE; i += 1) await login(t, user.username, WRONG, '10.4.0.1');
    expect((await login(t, user.username, user.password, '10.4.0.1')).statusCode).toBe(200);
    // A fresh count: FREE + 1 failures answer 401 again before the first wait.
    const after = await failRepeatedly(t, user.username, '10.4.0.1', FREE + 2);
    expect(after.map((a) => a.status)).toEqual([...Array<number>(FREE + 1).fill(401), 429]);
  });

  it('forgets failures after SIGN_IN_FAILURE_MEMORY_MINUTES, and the sweep deletes them', async () => {
    await failRepeatedly(t, 'forgotten.user', '10.5.0.1', FREE + 1);
    expect((await login(t, 'forgotten.user', WRONG, '10.5.0.1')).statusCode).toBe(429);
    const rows = () =>
      queryRows<{ n: number }>(
        db(),
        sql`SELECT count(*)::int AS n FROM sign_in_throttles WHERE ip = '10.5.0.1'`,
      );
    expect((await rows())[0]!.n).toBe(2);

    t.clock.advance(61 * MINUTE);
    const swept = await sweepExpiredCounters(t.app.deps);
    expect(swept.sign_in).toBeGreaterThanOrEqual(2);
    expect(swept.rate_limits).toBeGreaterThanOrEqual(1);
    expect((await rows())[0]!.n).toBe(0);
    const again = await failRepeatedly(t, 'forgotten.user', '10.5.0.1', FREE + 1);
    expect(again.map((a) => a.status)).toEqual(Array<number>(FREE + 1).fill(401));
  });

  it('writes sign-ins, failures and throttling to the audit log with the login and address', async () => {
    const user = await createUser(db(), { type: 'admin' });
    await failRepeatedly(t, 'Ghost.User ', '10.6.0.1', FREE + 2);
    expect((await login(t, user.username, WRONG, '10.6.0.2')).statusCode).toBe(401);
    expect((await login(t, user.username, user.password, '10.6.0.2')).statusCode).toBe(200);

    const rows = await queryRows<{
      action: string;
      entity_type: string;
      actor_user_id: number | null;
      entity_id: string | null;
      ip: string;
      after: Record<string, unknown>;
    }>(
      db(),
      sql`SELECT action, entity_type, actor_user_id, entity_id, ip, after FROM audit_log
           WHERE ip IN ('10.6.0.1', '10.6.0.2') ORDER BY id`,
    );
    expect(rows.map((r) => [r.action, r.ip])).toEqual([
      ...Array.from({ length: FREE + 1 }, () => ['sign_in_failed', '10.6.0.1']),
      ['sign_in_throttled', '10.6.0.1'],
      ['sign_in_failed', '10.6.0.2'],
      ['sign_in', '10.6.0.2'],
    ]);
    expect(new Set(rows.map((r) => r.entity_type))).toEqual(new Set(['sign_in']));
    expect(rows[0]).toMatchObject({
      actor_user_id: null,
      entity_id: null,
      after: { username: 'Ghost.User', reason: 'invalid_credentials' },
    });
    expect(rows[FREE + 1]!.after).toEqual({ username: 'Ghost.User', retry_after_seconds: 1 });
    expect(rows[FREE + 2]).toMatchObject({ actor_user_id: null, entity_id: String(user.id) });
    expect(rows[FREE + 3]).toMatchObject({
      actor_user_id: user.id,
      entity_id: String(user.id),
      after: { username: user.username },
    });
    // No password, right or wrong, reaches the log.
    expect(JSON.stringify(rows)).not.toContain(WRONG);
    expect(JSON.stringify(rows)).not.toContain(user.password);
  });

  describe('an administrator clears a user’s sign-in throttle', () => {
    const clear = (session: { cookie: string; xsrf: string }, id: number) =>
      injectAs(t.app, session, { method: 'DELETE', url: `/api/v1/users/${id}/sign-in-throttle` });

    it('lets the throttled user sign in at once, from every address, and audits it', async () => {
      const admin = await createUser(db(), { type: 'admin' });
      const user = await createUser(db(), { type: 'super_hr' });
      await failRepeatedly(t, user.username, '10.7.0.1', FREE + 1);
      await failRepeatedly(t, user.email!.toUpperCase(), '10.7.0.2', FREE + 1);
      expect((await login(t, user.username, user.password, '10.7.0.1')).statusCode).toBe(429);
      expect((await login(t, user.email!, user.password, '10.7.0.2')).statusCode).toBe(429);

      const session = await signIn(t.app, admin.username, admin.password);
      const res = await clear(session, user.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { cleared: 2 } });

      expect((await login(t, user.username, user.password, '10.7.0.1')).statusCode).toBe(200);
      expect((await login(t, user.email!, user.password, '10.7.0.2')).statusCode).toBe(200);
      const [audit] = await queryRows<{ actor_user_id: number; after: unknown }>(
        db(),
        sql`SELECT actor_user_id, after FROM audit_log
             WHERE action = 'clear_sign_in_throttle' AND entity_id = ${String(user.id)}`,
      );
      expect(audit).toEqual({
        actor_user_id: admin.id,
        after: { username: user.username, cleared: 2 },
      });
    });

    it('answers 404 for an unknown user and 403 to anyone but an admin', async () => {
      const admin = await createUser(db(), { type: 'admin' });
      const hr = await createUser(db(), { type: 'super_hr' });
      const adminSession = await signIn(t.app, admin.username, admin.password);
      const notFound = await clear(adminSession, 987_654);
      expect(notFound.statusCode).toBe(404);
      expect(envelopeProblem(notFound)).toBeNull();

      const hrSession = await signIn(t.app, hr.username, hr.password);
      const denied = await clear(hrSession, admin.id);
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toMatchObject({ code: 'PERMISSION_DENIED' });
      const anonymous = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/users/${admin.id}/sign-in-throttle`,
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });
});

describe.each(await testDatabaseKinds())('sign-in rate per address on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { ...ENV, LOGIN_RATE_LIMIT_PER_MINUTE: '4' });
  });
  afterAll(() => t.close());

  it('counts every sign-in of an address, right or wrong, per minute', async () => {
    const user = await createUser(t.db.database.db, { type: 'admin' });
    for (let i = 0; i < 4; i += 1) {
      expect((await login(t, user.username, user.password, '10.8.0.1')).statusCode).toBe(200);
    }
    const refused = await login(t, user.username, user.password, '10.8.0.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(envelopeProblem(refused)).toBeNull();
    expect((await login(t, user.username, user.password, '10.8.0.2')).statusCode).toBe(200);
    t.clock.advance(MINUTE);
    expect((await login(t, user.username, user.password, '10.8.0.1')).statusCode).toBe(200);
  });

  // The address's count and the attempt are one statement (decision 0064): past the limit, the
  // statement must take no attempt, nor the sign-in write an audit row.
  it('takes no attempt and writes no audit row for a sign-in past the limit', async () => {
    const user = await createUser(t.db.database.db, { type: 'admin' });
    const address = '10.8.1.1';
    for (let i = 0; i < 4; i += 1) {
      expect((await login(t, user.username, WRONG, address)).statusCode).toBe(401);
    }
    const counters = () =>
      queryRows<{ scope: string; failures: number }>(
        t.db.database.db,
        sql`SELECT scope, failures FROM sign_in_throttles WHERE ip = ${address} ORDER BY scope`,
      );
    const audited = async () =>
      (
        await queryRows<{ n: number }>(
          t.db.database.db,
          sql`SELECT count(*)::int AS n FROM audit_log WHERE ip = ${address}`,
        )
      )[0]!.n;
    const before = await counters();
    expect(before).toEqual([
      { scope: 'address', failures: 4 },
      { scope: 'login_address', failures: 4 },
    ]);
    expect(await audited()).toBe(4);
    // Past the limit, with a wrong and with a right password.
    expect((await login(t, user.username, WRONG, address)).statusCode).toBe(429);
    expect((await login(t, user.username, user.password, address)).statusCode).toBe(429);
    expect(await counters()).toEqual(before);
    expect(await audited()).toBe(4);
  });
});

const postgresOnly = (await testDatabaseKinds()).filter((kind) => kind === 'postgres');

describe.each(postgresOnly)('two API instances on one %s database', (kind) => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    one = await createTestApp(kind, { ...ENV, LOGIN_RATE_LIMIT_PER_MINUTE: '10' });
    two = await createSecondInstance(one, { ...ENV, LOGIN_RATE_LIMIT_PER_MINUTE: '10' });
  });
  afterAll(async () => {
    await two.close();
    await one.close();
  });

  it('share the sign-in throttle: failures spread over both hit it at the same count as on one', async () => {
    const user = await createUser(one.db.database.db, { type: 'admin' });
    const statuses: number[] = [];
    for (let i = 0; i < FREE + 2; i += 1) {
      const t = i % 2 === 0 ? one : two;
      statuses.push((await login(t, user.username, WRONG, '10.9.0.1')).statusCode);
    }
    expect(statuses).toEqual([...Array<number>(FREE + 1).fill(401), 429]);
    // Both instances hold it back; the owner elsewhere signs in on either.
    expect((await login(one, user.username, user.password, '10.9.0.1')).statusCode).toBe(429);
    expect((await login(two, user.username, user.password, '10.9.0.2')).statusCode).toBe(200);
  });

  it('share the sign-in rate per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const t = i % 2 === 0 ? one : two;
      statuses.push((await login(t, `rate.${i}`, WRONG, '10.9.1.1')).statusCode);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
  });
});

describe.each(postgresOnly)('a successful sign-in settling its counters on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, ENV);
  });
  afterAll(async () => {
    await t.close();
  });

  // The soak once answered a sign-in 500: a deadlock between a sign-in settling its counters in
  // its transaction and a parallel attempt of the same login from the same address, which takes
  // the (login, address) row, then the address's. Settling must take them in that order too.
  it('locks the (login, address) row before the address row, as an attempt does', async () => {
    const user = await createUser(t.db.database.db, { type: 'admin' });
    const address = '10.10.0.1';
    expect((await login(t, user.username, WRONG, address)).statusCode).toBe(401);
    const attempt = new pg.Client({ connectionString: t.db.url });
    await attempt.connect();
    try {
      await attempt.query('BEGIN');
      // A parallel attempt holds the (login, address) row…
      await attempt.query(
        `SELECT 1 FROM sign_in_throttles
          WHERE scope = 'login_address' AND login = $1 AND ip = $2 FOR UPDATE`,
        [user.username.toLowerCase(), address],
      );
      const settled = t.db.database.db.transaction((tx) =>
        clearSignInFailures(tx, { login: user.username, ip: address }),
      );
      // …the settling sign-in waits for it…
      const waiting = async () => {
        // pg_stat_activity is read once per transaction unless its snapshot is cleared.
        await attempt.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await attempt.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND query LIKE '%sign_in_throttles%'`,
        );
        return rows[0]!.n;
      };
      for (let tries = 0; (await waiting()) === 0 && tries < 200; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(await waiting()).toBe(1);
      // …holding nothing the attempt needs next: the address's row is free (before the fix the
      // settling statement had already locked it, and this failed with lock_not_available; since
      // decision 0070 settling does not touch the address's row at all).
      const next = await attempt.query(
        `SELECT failures FROM sign_in_throttles
          WHERE scope = 'address' AND login = '' AND ip = $1 FOR UPDATE NOWAIT`,
        [address],
      );
      expect(next.rows).toEqual([{ failures: 1 }]);
      await attempt.query('COMMIT');
      await settled;
    } finally {
      await attempt.end();
    }
    const rows = await queryRows<{ scope: string; failures: number }>(
      t.db.database.db,
      sql`SELECT scope, failures FROM sign_in_throttles WHERE ip = ${address} ORDER BY scope`,
    );
    // The wrong password's failure stays on the address: the success neither took nor gave it back.
    expect(rows).toEqual([{ scope: 'address', failures: 1 }]);
  });
});
