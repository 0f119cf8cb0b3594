import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../test/databases';
import { assertLedgerInvariants } from '../../test/invariants';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { queryRows } from '../db/client';
import { ManualClock } from '../lib/clock';
import { createDemoApprovals, DEMO_DISTRIBUTION_THRESHOLD } from './demo-approvals';
import { createDemoProgramme, DEMO_TERMINAL_KEY } from './demo-programme';
import { DEMO_PASSWORD } from './demo-users';
import { seedOnFirstStart } from './index';

const silent = { info: () => undefined, warn: () => undefined };

describe.each(await testDatabaseKinds())('the demo programme on %s', (kind) => {
  let db: TestDatabase;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SERVE_WEB: 'false',
    DEMO_DATA: 'true',
  });
  const now = new ManualClock('2026-05-20T10:00:00Z');

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const result = await seedOnFirstStart({
      config,
      database: db.database,
      log: silent,
      createProgramme: (tx) => createDemoProgramme(tx, { config, clock: now }),
      afterDemoUsers: (tx, { users, tenants }) =>
        createDemoApprovals(tx, { clock: now, users, companyId: tenants.companyId }),
    });
    expect(result.demoSignIns.length).toBeGreaterThan(0);
  });
  afterAll(() => db.drop());

  it('builds three months of history that keeps every invariant', async () => {
    const summary = await assertLedgerInvariants(db.database.db);
    expect(summary).toMatchObject({ companies: 3, employees: 30 });
    expect(summary.orders).toBeGreaterThan(150);
    const resets = await queryRows<{ code: string; period: string }>(
      db.database.db,
      sql`SELECT c.code, r.period FROM monthly_resets r JOIN companies c ON c.id = r.company_id
          ORDER BY c.code, r.period`,
    );
    expect(resets.map((r) => `${r.code} ${r.period}`)).toEqual([
      'ACME 2026-03',
      'ACME 2026-04',
      'ACME 2026-05',
      'GLOBEX 2026-02',
      'GLOBEX 2026-03',
      'GLOBEX 2026-04',
      'GLOBEX 2026-05',
      'INITECH 2026-02',
      'INITECH 2026-03',
      'INITECH 2026-04',
    ]);
    const refunds = await queryRows<{ reason: string }>(
      db.database.db,
      sql`SELECT DISTINCT refund_reason AS reason FROM token_transactions WHERE refund_reason IS NOT NULL`,
    );
    expect(refunds.length).toBeGreaterThanOrEqual(2);
  });

  it('gives both demo merchants settlement statements in several half-months (decision 0040)', async () => {
    const halves = await queryRows<{ code: string; halves: unknown }>(
      db.database.db,
      sql`SELECT m.code, count(DISTINCT date_trunc('month', t.occurred_at)
                   + CASE WHEN extract(day FROM t.occurred_at) >= 16 THEN interval '15 days' ELSE interval '0' END) AS halves
            FROM token_transactions t JOIN merchants m ON m.id = t.merchant_id
           WHERE t.event = 'order_purchased' GROUP BY m.code ORDER BY m.code`,
    );
    expect(halves.map((h) => h.code)).toEqual(['CAFE', 'SHOP']);
    for (const h of halves) expect(Number(h.halves), h.code).toBeGreaterThanOrEqual(4);
  });

  it('links the demo users to ACME (staff number E0001) and SHOP', async () => {
    const users = await queryRows<{ username: string; code: string | null; staff: string | null }>(
      db.database.db,
      sql`SELECT u.username, coalesce(c.code, m.code) AS code, e.employee_id AS staff
            FROM users u
            LEFT JOIN companies c ON c.id = u.company_id
            LEFT JOIN merchants m ON m.id = u.merchant_id
            LEFT JOIN employees e ON e.company_id = u.company_id AND e.employee_id = u.employee_id
           WHERE u.username IN ('acme.admin', 'acme.emp', 'shop.staff')
           ORDER BY u.username`,
    );
    expect(users).toEqual([
      { username: 'acme.admin', code: 'ACME', staff: null },
      { username: 'acme.emp', code: 'ACME', staff: 'E0001' },
      { username: 'shop.staff', code: 'SHOP', staff: null },
    ]);
  });

  it('answers the printed terminal key on the terminal API', async () => {
    const app = await buildApp({ config, database: db.database, clock: now, logger: false });
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/orders',
        headers: {
          authorization: `Bearer ${DEMO_TERMINAL_KEY}`,
          'idempotency-key': crypto.randomUUID(),
        },
        payload: {
          company_code: 'ACME',
          employee_id: 'E0001',
          order_type: 'dine_in',
          items: [{ name: 'Tea', quantity: 1, unit_tokens: 8 }],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const stored = await queryRows<{ n: number }>(
        db.database.db,
        sql`SELECT count(*)::int AS n FROM terminals WHERE api_key_hash LIKE ${'%' + DEMO_TERMINAL_KEY + '%'}`,
      );
      expect(stored[0]!.n).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('shows the demo employee (acme.emp) its wallet and pay code (decision 0033)', async () => {
    const app = await buildApp({ config, database: db.database, clock: now, logger: false });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/v1/iam/login',
        payload: { username: 'acme.emp', password: DEMO_PASSWORD },
      });
      expect(login.statusCode, login.body).toBe(200);
      const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/me/wallet',
        headers: { cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      const [row] = await queryRows<{ available: number; month: string }>(
        db.database.db,
        sql`SELECT e.available_tokens::int AS available, e.token_month AS month
              FROM employees e JOIN companies c ON c.id = e.company_id
             WHERE c.code = 'ACME' AND e.employee_id = 'E0001'`,
      );
      const wallet = res.json().data;
      expect(wallet).toMatchObject({
        company_code: 'ACME',
        employee_id: 'E0001',
        available_tokens: row!.available,
        expiring_tokens: row!.available,
        token_month: row!.month,
      });
      expect(wallet.available_tokens).toBeGreaterThan(0);
      expect(wallet.spent_tokens).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });

  it('shows a distribution by ACME’s admin waiting for Group HR, top-ups unguarded (decision 0039)', async () => {
    const app = await buildApp({ config, database: db.database, clock: now, logger: false });
    const signIn = async (username: string) => {
      const login = await app.inject({
        method: 'POST',
        url: '/api/v1/iam/login',
        payload: { username, password: DEMO_PASSWORD },
      });
      expect(login.statusCode, login.body).toBe(200);
      return login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    };
    try {
      const admin = await signIn('admin');
      const policy = await app.inject({
        method: 'GET',
        url: '/api/v1/sys/approval-policy',
        headers: { cookie: admin },
      });
      expect(policy.json().data).toMatchObject({
        top_up_threshold: null,
        distribution_threshold: DEMO_DISTRIBUTION_THRESHOLD,
      });
      const hr = await signIn('grouphr');
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/approvals?status=pending&to_decide=true',
        headers: { cookie: hr },
      });
      expect(res.statusCode, res.body).toBe(200);
      const [approval] = res.json().data;
      expect(res.json().total).toBe(1);
      expect(approval).toMatchObject({
        kind: 'distribution',
        status: 'pending',
        requested_by_username: 'acme.admin',
        payload: { company_name: 'Acme Corporation', note: 'Quarterly team bonus' },
        can_decide: true,
      });
      expect(approval.total).toBeGreaterThanOrEqual(DEMO_DISTRIBUTION_THRESHOLD);
      expect(approval.payload.items).toHaveLength(3);
      expect(approval.payload.items[0].name).toEqual(expect.any(String));
    } finally {
      await app.close();
    }
  });
});
