import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { signIn } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { loadConfig } from '../config';
import { createDatabase, queryRows, type Executor, type Tx } from '../db/client';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-users';
import { demoSignInBanner, seedOnFirstStart, type SeedLogger } from './index';

const silent: SeedLogger = { info: () => undefined, warn: () => undefined };

/** Configuration as a given environment would produce it. */
const configFor = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env });

describe.each(await testDatabaseKinds())('seeding on first start on %s', (kind) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(kind);
  });
  afterEach(() => t.close());

  const database = () => t.db.database;
  const usernames = async () =>
    (
      await queryRows<{ username: string }>(
        database().db,
        sql`SELECT username FROM users ORDER BY id`,
      )
    ).map((r) => r.username);

  it('creates the admin from ADMIN_USERNAME and ADMIN_PASSWORD, and no demo data', async () => {
    const config = configFor({
      DATABASE_URL: 'postgres://db.internal/app',
      ADMIN_USERNAME: 'boss',
      ADMIN_PASSWORD: 'Str0ng-Pass',
      ADMIN_EMAIL: 'boss@example.com',
    });
    const result = await seedOnFirstStart({ config, database: database(), log: silent });

    expect(result).toEqual({ seeded: true, admin: 'boss', demoSignIns: [] });
    expect(await usernames()).toEqual(['boss']);
    const session = await signIn(t.app, 'boss@example.com', 'Str0ng-Pass');
    expect(session.user).toMatchObject({ type: 'admin', username: 'boss', status: 'active' });
    expect(demoSignInBanner(result, 'http://127.0.0.1:3000')).toBeNull();
  });

  it('loads the demo users on the embedded default with no admin, and prints their sign-ins', async () => {
    const config = configFor({});
    expect(config.loadDemo).toBe(true);
    const tenants: unknown[] = [];
    const result = await seedOnFirstStart({
      config,
      database: database(),
      log: silent,
      createProgramme: async (tx) => {
        const ids = await insertTenants(tx);
        tenants.push(ids);
        return ids;
      },
    });

    expect(tenants).toHaveLength(1);
    const { companyId: c, merchantId: m } = tenants[0] as { companyId: number; merchantId: number };
    expect(await usernames()).toEqual(DEMO_USERS.map((u) => u.username));
    const rows = await queryRows<Record<string, unknown>>(
      database().db,
      sql`SELECT username, email, type, company_id, merchant_id, employee_id FROM users ORDER BY id`,
    );
    expect(rows).toEqual([
      row('admin', 'admin', null, null),
      row('grouphr', 'super_hr', null, null),
      row('acme.admin', 'company_admin', c, null),
      { ...row('acme.emp', 'company_employee', c, null), employee_id: 'E0001' },
      row('shop.admin', 'merchant_admin', null, m),
      row('shop.sup', 'merchant_supervisor', null, m),
      row('shop.staff', 'merchant_staff', null, m),
    ]);
    for (const demo of DEMO_USERS) {
      const session = await signIn(t.app, demo.username, DEMO_PASSWORD);
      expect(session.user.type).toBe(demo.type);
    }

    const banner = demoSignInBanner(result, 'http://127.0.0.1:3000');
    expect(banner).toContain('http://127.0.0.1:3000');
    for (const demo of DEMO_USERS)
      expect(banner).toMatch(new RegExp(`${demo.username}\\s+Demo@2026`));
  });

  it('uses company 1 and merchant 1 when no programme step is given', async () => {
    expect(await insertTenants(database().db)).toEqual({ companyId: 1, merchantId: 1 });
    await seedOnFirstStart({ config: configFor({}), database: database(), log: silent });
    const [emp] = await queryRows<{ company_id: number }>(
      database().db,
      sql`SELECT company_id FROM users WHERE username = 'acme.emp'`,
    );
    expect(Number(emp!.company_id)).toBe(1);
  });

  it('loads no demo data on a real database unless DEMO_DATA=true', async () => {
    const warnings: string[] = [];
    const log: SeedLogger = { info: () => undefined, warn: (_o, msg) => warnings.push(msg) };
    const config = configFor({ DATABASE_URL: 'postgres://db.internal/app' });
    expect(config.loadDemo).toBe(false);

    const result = await seedOnFirstStart({ config, database: database(), log });
    expect(result.demoSignIns).toEqual([]);
    expect(await usernames()).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(demoSignInBanner(result, 'http://x')).toBeNull();

    const opted = configFor({ DATABASE_URL: 'postgres://db.internal/app', DEMO_DATA: 'true' });
    await seedOnFirstStart({ config: opted, database: database(), log: silent, createProgramme });
    expect(await usernames()).toHaveLength(DEMO_USERS.length);
  });

  it('creates the admin and the rest of the demo when both are asked for', async () => {
    const config = configFor({
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'Str0ng-Pass',
      DEMO_DATA: 'true',
    });
    const result = await seedOnFirstStart({
      config,
      database: database(),
      log: silent,
      createProgramme,
    });
    expect(result.admin).toBe('admin');
    expect(result.demoSignIns.map((s) => s.username)).not.toContain('admin');
    expect(await usernames()).toHaveLength(DEMO_USERS.length);
    // The environment's password, not the demo one, opens the admin account.
    await expect(signIn(t.app, 'admin', DEMO_PASSWORD)).rejects.toThrow(/401/);
    expect((await signIn(t.app, 'admin', 'Str0ng-Pass')).user.type).toBe('admin');
  });

  it('does nothing once users exist, and seeds once when two instances start together', async () => {
    const config = configFor({});
    // On PostgreSQL the second instance has its own pool; PGlite has one connection anyway.
    const second = t.db.url ? await createDatabase({ url: t.db.url }) : database();
    const [a, b] = await Promise.all([
      seedOnFirstStart({ config, database: database(), log: silent, createProgramme }),
      seedOnFirstStart({ config, database: second, log: silent, createProgramme }),
    ]).finally(() => (second === database() ? undefined : second.close()));
    expect([a.seeded, b.seeded].sort()).toEqual([false, true]);
    expect(await usernames()).toHaveLength(DEMO_USERS.length);

    const again = await seedOnFirstStart({ config, database: database(), log: silent });
    expect(again).toEqual({ seeded: false, admin: null, demoSignIns: [] });
    expect(demoSignInBanner(again, 'http://x')).toBeNull();
  });
});

/**
 * The smallest company and merchant the ledger's tables accept, standing in for the demo
 * programme (src/seed/demo-programme.ts) that the ledger module provides.
 */
async function insertTenants(executor: Executor) {
  const [company] = await queryRows<{ id: number }>(
    executor,
    sql`INSERT INTO companies (code, name, monthly_reset_day, token_month, next_reset_at, created_at, updated_at)
        VALUES ('ACME', 'Acme', 1, '2026-01', '2026-02-01T00:00:00Z', now(), now()) RETURNING id`,
  );
  const [merchant] = await queryRows<{ id: number }>(
    executor,
    sql`INSERT INTO merchants (code, name, created_at, updated_at)
        VALUES ('SHOP', 'Shop', now(), now()) RETURNING id`,
  );
  return { companyId: Number(company!.id), merchantId: Number(merchant!.id) };
}
const createProgramme = (tx: Tx) => insertTenants(tx);

function row(username: string, type: string, companyId: number | null, merchantId: number | null) {
  return {
    username,
    email: `${username}@demo.example`,
    type,
    company_id: companyId,
    merchant_id: merchantId,
    employee_id: null,
  };
}
