// The back-office's money requests under their Idempotency-Key (issue 39 item 1, decision 0068):
// issue, distribute (the reward dialog's request, by selection or by file), approve and reject.
import crypto from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Approval, Company, Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { injectAs, type TestSession } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { assertLedgerInvariants } from '../../test/invariants';
import { newCompany, newEmployee } from '../../test/ledger';
import { signedIn } from '../../test/management';
import { queryRows } from '../db/client';

const TOPUP = '/api/v1/tokens/topup-token';
const DISTRIBUTE = '/api/v1/tokens/topup-token/employees';
const POLICY = '/api/v1/sys/approval-policy';

type Answer = Awaited<ReturnType<typeof injectAs>>;

/** One money route as the tests drive it. */
interface Case {
  name: string;
  /** A fresh request: who sends it, where, with what, and another body for the same key. */
  prepare(): Promise<{
    session: TestSession;
    url: string;
    body: object | undefined;
    other: { url: string; body: object | undefined };
    /** The row a blocker locks so that both requests are in flight together (PostgreSQL). */
    lock: SQL;
    /** What the request moves or writes, counted: ledger rows and decisions. */
    effects(): Promise<Record<string, number>>;
  }>;
  /** What the first application leaves in `effects`. */
  once: Record<string, number>;
}

describe.each(await testDatabaseKinds())('back-office Idempotency-Key on %s', (kind) => {
  let t: TestApp;
  let admin: TestSession;
  let admin2: TestSession;

  const send = (session: TestSession, url: string, body: object | undefined, key?: string) =>
    injectAs(t.app, session, {
      method: 'POST',
      url,
      ...(body ? { payload: body } : {}),
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
  const count = async (query: SQL) =>
    (await queryRows<{ n: number }>(t.db.database.db, query))[0]!.n;
  const companyEffects = (companyId: number) => async () => ({
    ledger: await count(
      sql`SELECT count(*)::int AS n FROM token_transactions WHERE company_id = ${companyId}`,
    ),
    balance: await count(
      sql`SELECT token_balance::int AS n FROM companies WHERE id = ${companyId}`,
    ),
    approvals: await count(
      sql`SELECT count(*)::int AS n FROM approvals WHERE company_id = ${companyId}`,
    ),
    decided: await count(
      sql`SELECT count(*)::int AS n FROM approvals
           WHERE company_id = ${companyId} AND status <> 'pending'`,
    ),
  });
  const setPolicy = (top_up_threshold: number | null, distribution_threshold: number | null) =>
    injectAs(t.app, admin, {
      method: 'PUT',
      url: POLICY,
      payload: { top_up_threshold, distribution_threshold },
    });
  /** A pending top-up of `amount` to `company`, requested by `admin` (threshold 1,000). */
  const pendingTopUp = async (company: Company, amount: number): Promise<Approval> => {
    await setPolicy(1000, null);
    const res = await send(admin, TOPUP, { company_id: company.id, amount });
    await setPolicy(null, null);
    expect(res.statusCode).toBe(202);
    return res.json().data.approval as Approval;
  };

  const cases: Case[] = [
    {
      name: 'issue (POST /tokens/topup-token)',
      once: { ledger: 1, balance: 500, approvals: 0, decided: 0 },
      async prepare() {
        const company = await newCompany(t.app.deps, { initToken: 0 });
        return {
          session: admin,
          url: TOPUP,
          body: { company_id: company.id, amount: 500 },
          other: { url: TOPUP, body: { company_id: company.id, amount: 501 } },
          lock: sql`SELECT 1 FROM companies WHERE id = ${company.id} FOR UPDATE`,
          effects: companyEffects(company.id),
        };
      },
    },
    {
      name: 'distribute and reward (POST /tokens/topup-token/employees)',
      // The company's opening issue, then one distribution of two: a sent and a received row each.
      once: { ledger: 5, balance: 700, approvals: 0, decided: 0 },
      async prepare() {
        const company = await newCompany(t.app.deps, { initToken: 1000 });
        const ada: Employee = await newEmployee(t.app.deps, company.id);
        const bob: Employee = await newEmployee(t.app.deps, company.id);
        const companyAdmin = (await signedIn(t, 'company_admin', { companyId: company.id }))
          .session;
        const items = [
          { employee_id: ada.id, amount: 100 },
          { employee_id: bob.id, amount: 200 },
        ];
        return {
          session: companyAdmin,
          url: DISTRIBUTE,
          body: { items, note: 'Reward' },
          other: { url: DISTRIBUTE, body: { items, note: 'Another reward' } },
          lock: sql`SELECT 1 FROM companies WHERE id = ${company.id} FOR UPDATE`,
          effects: companyEffects(company.id),
        };
      },
    },
    {
      name: 'approve (POST /approvals/{id}/approve)',
      once: { ledger: 1, balance: 5000, approvals: 1, decided: 1 },
      async prepare() {
        const company = await newCompany(t.app.deps, { initToken: 0 });
        const approval = await pendingTopUp(company, 5000);
        const another = await pendingTopUp(await newCompany(t.app.deps, { initToken: 0 }), 4000);
        return {
          session: admin2,
          url: `/api/v1/approvals/${approval.id}/approve`,
          body: undefined,
          other: { url: `/api/v1/approvals/${another.id}/approve`, body: undefined },
          lock: sql`SELECT 1 FROM approvals WHERE id = ${approval.id} FOR UPDATE`,
          effects: companyEffects(company.id),
        };
      },
    },
    {
      name: 'reject (POST /approvals/{id}/reject)',
      once: { ledger: 0, balance: 0, approvals: 1, decided: 1 },
      async prepare() {
        const company = await newCompany(t.app.deps, { initToken: 0 });
        const approval = await pendingTopUp(company, 5000);
        const url = `/api/v1/approvals/${approval.id}/reject`;
        return {
          session: admin2,
          url,
          body: { reason: 'Not this month' },
          other: { url, body: { reason: 'Not ever' } },
          lock: sql`SELECT 1 FROM approvals WHERE id = ${approval.id} FOR UPDATE`,
          effects: companyEffects(company.id),
        };
      },
    },
  ];

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedIn(t, 'admin')).session;
    admin2 = (await signedIn(t, 'admin')).session;
  });
  afterEach(async () => {
    await assertLedgerInvariants(t.app.deps.database.db);
  });
  afterAll(() => t.close());

  /**
   * Sends two identical requests together. On PostgreSQL a blocker holds `lock` first, so both are
   * in flight at once: the first claims the key and waits on the lock, the second waits on the
   * key; both are seen waiting before the blocker lets go. PGlite has one connection, so there
   * the two simply run one after the other.
   */
  async function concurrently(lock: SQL, requests: () => Promise<Answer>[]): Promise<Answer[]> {
    if (kind !== 'postgres') return Promise.all(requests());
    let answers: Promise<Answer[]> | undefined;
    await t.db.database.db.transaction(async (tx) => {
      await tx.execute(lock);
      const before = await waiting();
      answers = Promise.all(requests());
      while ((await waiting()) < before + 2) await new Promise((r) => setTimeout(r, 10));
    });
    return answers!;
  }
  const waiting = () =>
    count(
      sql`SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );

  describe.each(cases)('$name', (c) => {
    it('applies two concurrent identical requests with one key once, and answers both alike', async () => {
      const r = await c.prepare();
      const key = crypto.randomUUID();
      const [first, second] = await concurrently(r.lock, () => [
        send(r.session, r.url, r.body, key),
        send(r.session, r.url, r.body, key),
      ]);
      expect(first!.statusCode).toBe(200);
      expect(second!.statusCode).toBe(first!.statusCode);
      expect(second!.json()).toEqual(first!.json());
      expect(await r.effects()).toEqual(c.once);
    });

    it('answers a repeat after completion with the first answer and writes nothing new', async () => {
      const r = await c.prepare();
      const key = crypto.randomUUID();
      const first = await send(r.session, r.url, r.body, key);
      expect(first.statusCode).toBe(200);
      const after = await r.effects();
      expect(after).toEqual(c.once);
      const repeat = await send(r.session, r.url, r.body, key);
      expect(repeat.statusCode).toBe(200);
      expect(repeat.body).toBe(first.body);
      expect(await r.effects()).toEqual(after);
    });

    it('refuses the same key with another body: 422 IDEMPOTENCY_KEY_REUSED, nothing moved', async () => {
      const r = await c.prepare();
      const key = crypto.randomUUID();
      expect((await send(r.session, r.url, r.body, key)).statusCode).toBe(200);
      const before = await r.effects();
      const reused = await send(r.session, r.other.url, r.other.body, key);
      expect(reused.statusCode).toBe(422);
      expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await r.effects()).toEqual(before);
    });

    it('refuses a request without a key, or with a blank or too long one: 400, nothing moved', async () => {
      const r = await c.prepare();
      const before = await r.effects();
      const missing = await t.app.inject({
        method: 'POST',
        url: r.url,
        headers: { cookie: r.session.cookie, 'x-xsrf-token': r.session.xsrf },
        ...(r.body ? { payload: r.body } : {}),
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().code).toBe('IDEMPOTENCY_KEY_REQUIRED');
      for (const key of ['  ', 'k'.repeat(201)]) {
        const bad = await send(r.session, r.url, r.body, key);
        expect(bad.statusCode).toBe(400);
        expect(bad.json().code).toBe('IDEMPOTENCY_KEY_REQUIRED');
      }
      expect(await r.effects()).toEqual(before);
      // The right key still goes through after them.
      expect((await send(r.session, r.url, r.body, crypto.randomUUID())).statusCode).toBe(200);
    });
  });

  it('answers a repeat of a request held for approval with the same 202, and holds it once', async () => {
    const company = await newCompany(t.app.deps, { initToken: 0 });
    const effects = companyEffects(company.id);
    await setPolicy(1000, null);
    try {
      const key = crypto.randomUUID();
      const body = { company_id: company.id, amount: 2000 };
      const [first, second] = await concurrently(
        sql`SELECT 1 FROM companies WHERE id = ${company.id} FOR UPDATE`,
        () => [send(admin, TOPUP, body, key), send(admin, TOPUP, body, key)],
      );
      expect(first!.statusCode).toBe(202);
      expect(second!.statusCode).toBe(202);
      expect(second!.json()).toEqual(first!.json());
      const repeat = await send(admin, TOPUP, body, key);
      expect(repeat.statusCode).toBe(202);
      expect(repeat.body).toBe(first!.body);
      expect(await effects()).toEqual({ ledger: 0, balance: 0, approvals: 1, decided: 0 });
    } finally {
      await setPolicy(null, null);
    }
  });

  it('keeps no key for a refused request: the same key applies once the cause is gone', async () => {
    const company = await newCompany(t.app.deps, { initToken: 0 });
    const ada = await newEmployee(t.app.deps, company.id);
    const companyAdmin = (await signedIn(t, 'company_admin', { companyId: company.id })).session;
    const key = crypto.randomUUID();
    const body = { items: [{ employee_id: ada.id, amount: 300 }] };
    const refused = await send(companyAdmin, DISTRIBUTE, body, key);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('TOTAL_EXCEEDS_AVAILABLE');
    expect((await send(admin, TOPUP, { company_id: company.id, amount: 300 })).statusCode).toBe(
      200,
    );
    const applied = await send(companyAdmin, DISTRIBUTE, body, key);
    expect(applied.statusCode).toBe(200);
    expect(await companyEffects(company.id)()).toMatchObject({ ledger: 3, balance: 0 });
  });

  it('scopes keys per user: two users sending the same key each get their own request', async () => {
    const company = await newCompany(t.app.deps, { initToken: 0 });
    const key = crypto.randomUUID();
    const body = { company_id: company.id, amount: 100 };
    expect((await send(admin, TOPUP, body, key)).statusCode).toBe(200);
    expect((await send(admin2, TOPUP, body, key)).statusCode).toBe(200);
    expect(await companyEffects(company.id)()).toMatchObject({ ledger: 2, balance: 200 });
  });

  it('refuses one key on two routes: 422, as another body', async () => {
    const company = await newCompany(t.app.deps, { initToken: 0 });
    const approval = await pendingTopUp(company, 3000);
    const key = crypto.randomUUID();
    expect(
      (await send(admin2, TOPUP, { company_id: company.id, amount: 10 }, key)).statusCode,
    ).toBe(200);
    const approve = await send(admin2, `/api/v1/approvals/${approval.id}/approve`, undefined, key);
    expect(approve.statusCode).toBe(422);
    expect(approve.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await companyEffects(company.id)()).toMatchObject({ balance: 10, decided: 0 });
  });
});
