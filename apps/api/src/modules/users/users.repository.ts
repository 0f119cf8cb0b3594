import { and, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { ManagedUser, Role, Status } from '@app/contract';
import type { Executor, Tx } from '../../db/client';
import { companies, merchants, users } from '../../db/schema';
import { iso } from '../../lib/numbers';

export type UserRow = typeof users.$inferSelect;

/** A user with the names of its merchant and company, for display. */
export interface UserWithTenant {
  user: UserRow;
  merchantName: string | null;
  companyName: string | null;
}

export function toManagedUser({ user, merchantName, companyName }: UserWithTenant): ManagedUser {
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
  };
}

/** `%` and `_` typed by a person are letters, not wildcards. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface UserFilter {
  /** Only users of these types are visible: the screen's own slice of the users table. */
  types: readonly Role[];
  /** Part of the username or the email, any case. */
  search?: string | undefined;
  status?: Status | undefined;
  merchantId?: number | undefined;
  companyId?: number | undefined;
}

/** Live users of the given types (deleted users are never listed). */
function userConditions(filter: UserFilter): SQL | undefined {
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  return and(
    isNull(users.deletedAt),
    inArray(users.type, [...filter.types]),
    pattern
      ? sql`(${users.username} ILIKE ${pattern} ESCAPE '\\' OR ${users.email} ILIKE ${pattern} ESCAPE '\\')`
      : undefined,
    filter.status ? eq(users.status, filter.status) : undefined,
    filter.merchantId !== undefined ? eq(users.merchantId, filter.merchantId) : undefined,
    filter.companyId !== undefined ? eq(users.companyId, filter.companyId) : undefined,
  );
}

const withTenant = { user: users, merchantName: merchants.name, companyName: companies.name };

/** A page of users, newest first, and how many match in all. */
export async function findUsers(
  executor: Executor,
  filter: UserFilter & { page: number; pageSize: number },
): Promise<{ rows: UserWithTenant[]; total: number }> {
  const where = userConditions(filter);
  const rows = await executor
    .select(withTenant)
    .from(users)
    .leftJoin(merchants, eq(merchants.id, users.merchantId))
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(where)
    .orderBy(desc(users.id))
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  const [total] = await executor.select({ n: count() }).from(users).where(where);
  return { rows, total: Number(total?.n ?? 0) };
}

/** One live user of the given types, or undefined (another type is simply not found here). */
export async function findUser(
  executor: Executor,
  id: number,
  types: readonly Role[],
): Promise<UserWithTenant | undefined> {
  const [row] = await executor
    .select(withTenant)
    .from(users)
    .leftJoin(merchants, eq(merchants.id, users.merchantId))
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.id, id), userConditions({ types })));
  return row;
}

/** Reads a live user of the given types and holds its row until the transaction ends. */
export async function lockUser(
  tx: Tx,
  id: number,
  types: readonly Role[],
): Promise<UserRow | undefined> {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), userConditions({ types })))
    .for('update');
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
