import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database, Tx } from '../db/client';
import { countUsers } from '../modules/iam';
import { createUserAccount } from '../modules/iam';
import type { AuthUser } from '../lib/principal';
import { createDemoUsers, type DemoSignIn } from './demo-users';

/** Held for the seeding transaction, so instances starting together seed once. */
const SEED_LOCK = 727_002;

export interface SeedLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Creates the demo programme (companies, merchants, …) and names the tenants of the demo users. */
export type CreateProgramme = (tx: Tx) => Promise<{ companyId: number; merchantId: number }>;

export interface SeedOptions {
  config: Pick<Config, 'ADMIN_USERNAME' | 'ADMIN_PASSWORD' | 'ADMIN_EMAIL' | 'loadDemo'>;
  database: Database;
  log: SeedLogger;
  /** Without it the demo users point at company 1 and merchant 1. */
  createProgramme?: CreateProgramme;
  /** Runs once the demo users exist (the demo's pending approval needs its people). */
  afterDemoUsers?: (
    tx: Tx,
    demo: { users: AuthUser[]; tenants: { companyId: number; merchantId: number } },
  ) => Promise<void>;
}

export interface SeedResult {
  /** Whether this call found an empty users table and seeded it. */
  seeded: boolean;
  /** Username of the admin created from ADMIN_USERNAME, if any. */
  admin: string | null;
  /** Demo sign-ins created, to be printed once the address is known. */
  demoSignIns: DemoSignIn[];
}

/**
 * First start (DESIGN 5): on an empty users table, create the admin from ADMIN_USERNAME /
 * ADMIN_PASSWORD and, when the configuration allows demo data (embedded database without an
 * admin, or DEMO_DATA=true), the demo programme and its users. One transaction under an
 * advisory lock: a second instance waits, then finds users and does nothing.
 */
export async function seedOnFirstStart(options: SeedOptions): Promise<SeedResult> {
  const { config, database, log, createProgramme } = options;
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
    if ((await countUsers(tx)) > 0) return { seeded: false, admin: null, demoSignIns: [] };

    let admin: string | null = null;
    if (config.ADMIN_USERNAME && config.ADMIN_PASSWORD) {
      const created = await createUserAccount(tx, {
        username: config.ADMIN_USERNAME,
        email: config.ADMIN_EMAIL ?? null,
        password: config.ADMIN_PASSWORD,
        type: 'admin',
        status: 'active',
      });
      admin = created.username;
      log.info({ username: admin }, 'created the first admin from ADMIN_USERNAME');
    }

    let demoSignIns: DemoSignIn[] = [];
    if (config.loadDemo) {
      const tenants = createProgramme ? await createProgramme(tx) : { companyId: 1, merchantId: 1 };
      const taken = new Set(admin ? [admin.toLowerCase()] : []);
      const demo = await createDemoUsers(tx, tenants, taken);
      demoSignIns = demo.signIns;
      await options.afterDemoUsers?.(tx, { users: demo.users, tenants });
      log.info({ users: demoSignIns.length }, 'loaded the demo data');
    }

    if (!admin && demoSignIns.length === 0) {
      log.warn(
        {},
        'no users yet: set ADMIN_USERNAME and ADMIN_PASSWORD and restart to create the first admin',
      );
    }
    return { seeded: true, admin, demoSignIns };
  });
}

/** The console block listing the demo sign-ins; null when no demo data was loaded. */
export function demoSignInBanner(result: SeedResult, address: string): string | null {
  if (result.demoSignIns.length === 0) return null;
  const width = Math.max(...result.demoSignIns.map((s) => s.username.length));
  const rule = '-'.repeat(64);
  return [
    rule,
    `  Demo data loaded. Open ${address} and sign in as:`,
    '',
    ...result.demoSignIns.map(
      (s) => `    ${s.username.padEnd(width)}  ${s.password}   ${s.label} (${s.type})`,
    ),
    '',
    '  Demo accounts are for trying the product; do not keep them in production.',
    rule,
  ].join('\n');
}
