// Factories for the user-management, audit and system-period tests (issue 4).
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Role } from '@app/contract';
import { queryRows } from '../src/db/client';
import { createCompany } from '../src/modules/companies';
import { createMerchant } from '../src/modules/merchants';
import type { TestApp } from './app';
import {
  createUser,
  signIn,
  type CreateUserOptions,
  type TestSession,
  type TestUser,
} from './auth';

const code = (prefix: string) => `${prefix}${crypto.randomBytes(3).toString('hex')}`.toUpperCase();

/** A company made through the companies service, as the API would make it. */
export const newCompany = (t: TestApp, actorUserId: number | null = null, initToken = 0) =>
  createCompany(t.app.deps, actorUserId, {
    code: code('C'),
    name: 'Test company',
    status: 'active',
    monthly_reset_day: 1,
    init_token: initToken,
  });

/** A merchant made through the merchants service. */
export const newMerchant = (t: TestApp) =>
  createMerchant(t.app.deps, { code: code('M'), name: 'Test merchant', status: 'active' });

export interface SignedInUser {
  user: TestUser;
  session: TestSession;
}

/** A user inserted straight into the database, and a session of it. */
export async function signedIn(
  t: TestApp,
  type: Role,
  options: Omit<CreateUserOptions, 'type'> = {},
): Promise<SignedInUser> {
  const user = await createUser(t.db.database.db, { type, ...options });
  const session = await signIn(t.app, user.username, user.password);
  return { user, session };
}

/** One of every role, each signed in; tenant roles get a fresh company or merchant. */
export async function oneOfEachRole(t: TestApp): Promise<Record<Role, SignedInUser>> {
  const company = await newCompany(t);
  const merchant = await newMerchant(t);
  return {
    admin: await signedIn(t, 'admin'),
    super_hr: await signedIn(t, 'super_hr'),
    company_admin: await signedIn(t, 'company_admin', { companyId: company.id }),
    company_employee: await signedIn(t, 'company_employee', { companyId: company.id }),
    merchant_admin: await signedIn(t, 'merchant_admin', { merchantId: merchant.id }),
    merchant_supervisor: await signedIn(t, 'merchant_supervisor', { merchantId: merchant.id }),
    merchant_staff: await signedIn(t, 'merchant_staff', { merchantId: merchant.id }),
  };
}

export interface AuditRow {
  id: number;
  occurred_at: string;
  actor_user_id: number | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
}

/** The audit rows of one entity, oldest first, read straight from the table. */
export const auditRowsOf = (t: TestApp, entityType: string, entityId: string | number) =>
  queryRows<AuditRow>(
    t.db.database.db,
    sql`SELECT id, occurred_at::text, actor_user_id::int AS actor_user_id, action, entity_type,
          entity_id, before, after, ip
        FROM audit_log WHERE entity_type = ${entityType} AND entity_id = ${String(entityId)}
        ORDER BY id`,
  );

/** Unique, valid usernames and emails for one test run. */
let sequence = 0;
export function uniqueName(prefix = 'user'): { username: string; email: string } {
  sequence += 1;
  const username = `${prefix}.${sequence}${crypto.randomBytes(2).toString('hex')}`.slice(0, 20);
  return { username, email: `${username}@example.com` };
}

export const STRONG_PASSWORD = 'Str0ng!Pass';
