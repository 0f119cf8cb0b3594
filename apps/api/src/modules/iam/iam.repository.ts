import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Role, SelfUser, Status } from '@app/contract';
import type { Executor } from '../../db/client';
import { users } from '../../db/schema';
import type { AuthUser } from '../../lib/principal';

export type UserRow = typeof users.$inferSelect;

export function toAuthUser(row: UserRow): AuthUser {
  return {
    id: row.id,
    type: row.type as Role,
    username: row.username,
    email: row.email,
    companyId: row.companyId,
    merchantId: row.merchantId,
    employeeId: row.employeeId,
    status: row.status as Status,
  };
}

/** The wire shape of the signed-in user (contract `selfUserSchema`). */
export function toSelfUser(user: AuthUser): SelfUser {
  return {
    user_id: user.id,
    type: user.type,
    username: user.username,
    email: user.email,
    employee_id: user.employeeId,
    company_id: user.companyId,
    merchant_id: user.merchantId,
    status: user.status,
  };
}

/**
 * A live user by username or email, case-insensitively; a username match wins over an email
 * match. Deleted users (deleted_at set, decision 0005) cannot sign in.
 */
export async function lookupUserByLogin(
  executor: Executor,
  login: string,
): Promise<UserRow | null> {
  const rows = await executor
    .select()
    .from(users)
    .where(
      and(
        isNull(users.deletedAt),
        sql`(lower(${users.username}) = lower(${login}) OR lower(${users.email}) = lower(${login}))`,
      ),
    )
    .orderBy(sql`(lower(${users.username}) = lower(${login})) DESC`)
    .limit(1);
  return rows[0] ?? null;
}

/** A live (not deleted) user by email, case-insensitively (OIDC sign-in links by it). */
export async function lookupUserByEmail(
  executor: Executor,
  email: string,
): Promise<UserRow | null> {
  const rows = await executor
    .select()
    .from(users)
    .where(and(isNull(users.deletedAt), sql`lower(${users.email}) = lower(${email})`))
    .limit(1);
  return rows[0] ?? null;
}

/** Is a username taken, by a live or a deleted user (usernames stay unique)? */
export async function isUsernameTaken(executor: Executor, username: string): Promise<boolean> {
  const [row] = await executor
    .select({ n: count() })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`);
  return Number(row?.n ?? 0) > 0;
}

/** A live (not deleted) user by id. */
export async function lookupUserById(executor: Executor, id: number): Promise<UserRow | null> {
  const rows = await executor
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .limit(1);
  return rows[0] ?? null;
}

/** The user's row, locked for the rest of the transaction. */
export async function lookupUserForUpdate(executor: Executor, id: number): Promise<UserRow | null> {
  const rows = await executor.select().from(users).where(eq(users.id, id)).for('update');
  return rows[0] ?? null;
}

export async function countUsers(executor: Executor): Promise<number> {
  const [row] = await executor.select({ n: count() }).from(users);
  return Number(row?.n ?? 0);
}

export interface NewUser {
  username: string;
  email: string | null;
  passwordHash: string;
  type: Role;
  status: Status;
  companyId?: number | null;
  merchantId?: number | null;
  employeeId?: string | null;
}

export async function insertUser(executor: Executor, user: NewUser): Promise<UserRow> {
  const [row] = await executor.insert(users).values(user).returning();
  return row!;
}

export async function updatePasswordHash(
  executor: Executor,
  userId: number,
  passwordHash: string,
  at: Date,
): Promise<boolean> {
  const updated = await executor
    .update(users)
    .set({ passwordHash, passwordChangedAt: at, updatedAt: at })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return updated.length > 0;
}

/**
 * A password set ends every open set-password link of the user (decision 0025): the account has
 * a password now, so no link may set another one.
 */
export async function closeSetPasswordLinks(
  executor: Executor,
  userId: number,
  at: Date,
): Promise<void> {
  await executor.execute(
    sql`UPDATE user_invitations SET used_at = ${at.toISOString()}::timestamptz
         WHERE user_id = ${userId} AND used_at IS NULL`,
  );
}
