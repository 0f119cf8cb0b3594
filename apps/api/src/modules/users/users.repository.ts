import { and, count, desc, eq, inArray, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ManagedUser, Role, SortOrder, Status, UserSort } from '@app/contract';
import type { Executor, Tx } from '../../db/client';
import { companies, merchants, users } from '../../db/schema';
import { iso } from '../../lib/numbers';
import { sortedBy } from '../../lib/sql';

export type UserRow = typeof users.$inferSelect;

/** A user with the names of its merchant and company, for display. */
export interface UserWithTenant {
  user: UserRow;
  merchantName: string | null;
  companyName: string | null;
  /** The newest open set-password link's expiry: set while the account has no password. */
  invitationExpiresAt: Date | string | null;
}

/** The user as its screens show it; `now` tells a pending invitation from an expired one. */
export function toManagedUser(
  { user, merchantName, companyName, invitationExpiresAt }: UserWithTenant,
  now: Date,
): ManagedUser {
  const expiresAt = invitationExpiresAt === null ? null : new Date(invitationExpiresAt);
  return {
    user_id: user.id,
    username: user.username,
    email: user.email,
    type: user.type as Role,
    status: user.status as Status,
    merchant_id: user.merchantId,
    merchant_name: merchantName,
    company_id: user.companyId,
    company_name: companyName,
    created_at: iso(user.createdAt),
    updated_at: iso(user.updatedAt),
    invitation: expiresAt && {
      status: expiresAt.getTime() > now.getTime() ? 'pending' : 'expired',
      expires_at: expiresAt.toISOString(),
    },
  };
}

/** `%` and `_` typed by a person are letters, not wildcards. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The slice of the users table a caller manages on one screen: users of these types and, for a
 * merchant admin, of its own merchant only (DESIGN 2). Anyone outside it is not found there.
 */
export interface UserScope {
  types: readonly Role[];
  /** Set for a merchant admin: only this merchant's users. */
  merchantId?: number | undefined;
}

/** The one scope rule of the users table, inside every query (deleted users are never in it). */
export function userScope(scope: UserScope): SQL {
  return and(
    isNull(users.deletedAt),
    inArray(users.type, [...scope.types]),
    scope.merchantId !== undefined ? eq(users.merchantId, scope.merchantId) : undefined,
  )!;
}

export interface UserFilter {
  scope: UserScope;
  /** Only these types (a filter within the scope's). */
  types?: readonly Role[] | undefined;
  /** Part of the username or the email, any case. */
  search?: string | undefined;
  status?: Status | undefined;
  merchantId?: number | undefined;
  companyId?: number | undefined;
}

/** The scope, then the list's filters. */
function userConditions(filter: UserFilter): SQL | undefined {
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  return and(
    userScope(filter.scope),
    filter.types?.length ? inArray(users.type, [...filter.types]) : undefined,
    pattern
      ? sql`(${users.username} ILIKE ${pattern} ESCAPE '\\' OR ${users.email} ILIKE ${pattern} ESCAPE '\\')`
      : undefined,
    filter.status ? eq(users.status, filter.status) : undefined,
    filter.merchantId !== undefined ? eq(users.merchantId, filter.merchantId) : undefined,
    filter.companyId !== undefined ? eq(users.companyId, filter.companyId) : undefined,
  );
}

const withTenant = {
  user: users,
  merchantName: merchants.name,
  companyName: companies.name,
  // An open link (unused; expired or not) means no password yet: a password set closes them all
  // (user_invitations, decision 0025).
  invitationExpiresAt: sql<Date | string | null>`(SELECT max(i.expires_at) FROM user_invitations i
    WHERE i.user_id = ${users.id} AND i.used_at IS NULL)`,
};

/** The columns the users list sorts by (lower-cased text, so case does not split names). */
const USER_SORT_COLUMNS: Record<UserSort, SQLWrapper> = {
  username: sql`lower(${users.username})`,
  email: sql`lower(${users.email})`,
  type: users.type,
  status: users.status,
  created_at: users.createdAt,
};

/** A page of users, newest first unless sorted, and how many match in all. */
export async function findUsers(
  executor: Executor,
  filter: UserFilter & {
    page: number;
    pageSize: number;
    sort?: UserSort | undefined;
    order?: SortOrder | undefined;
  },
): Promise<{ rows: UserWithTenant[]; total: number }> {
  const where = userConditions(filter);
  const rows = await executor
    .select(withTenant)
    .from(users)
    .leftJoin(merchants, eq(merchants.id, users.merchantId))
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(where)
    .orderBy(
      ...(filter.sort
        ? sortedBy(USER_SORT_COLUMNS[filter.sort], users.id, filter.order ?? 'asc')
        : [desc(users.id)]),
    )
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  const [total] = await executor.select({ n: count() }).from(users).where(where);
  return { rows, total: Number(total?.n ?? 0) };
}

/** One user in the scope, or undefined (anyone else is simply not found here). */
export async function lookupUser(
  executor: Executor,
  id: number,
  scope: UserScope,
): Promise<UserWithTenant | undefined> {
  const [row] = await executor
    .select(withTenant)
    .from(users)
    .leftJoin(merchants, eq(merchants.id, users.merchantId))
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.id, id), userScope(scope)));
  return row;
}

/** Reads a user in the scope and holds its row until the transaction ends. */
export async function lockUser(tx: Tx, id: number, scope: UserScope): Promise<UserRow | undefined> {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), userScope(scope)))
    .for('update');
  return row;
}

/**
 * The merchant of a live user outside a caller's scope (null: a user of no merchant), or
 * undefined when there is no such user: tells "not yours to manage" from "not found".
 */
export async function lookupUserMerchant(
  executor: Executor,
  id: number,
): Promise<{ merchantId: number | null } | undefined> {
  const [row] = await executor
    .select({ merchantId: users.merchantId })
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)));
  return row;
}

export async function updateUserRow(
  executor: Executor,
  id: number,
  values: Partial<Pick<UserRow, 'username' | 'email' | 'status' | 'deletedAt'>> & {
    updatedAt: Date;
  },
): Promise<void> {
  await executor.update(users).set(values).where(eq(users.id, id));
}
