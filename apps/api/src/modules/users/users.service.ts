import type { z } from 'zod';
import {
  isMerchantRole,
  userTypesManagedBy,
  type createUserBodySchema,
  type HrListQuery,
  type ManagedUser,
  type Role,
  type Status,
  type updateUserBodySchema,
  type UserListQuery,
} from '@app/contract';
import type { Executor, Tx } from '../../db/client';
import { AppError, isAppError } from '../../lib/app-error';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import type { AuthUser } from '../../lib/principal';
import { scopeOf } from '../../lib/scope';
import { pagedFilterOf } from '../../lib/sql';
import { inTransaction, sqlState, violatedConstraint } from '../../lib/transaction';
import { lookupCompany } from '../companies';
import { confirmCurrentPassword, createUserAccount, setPassword } from '../iam';
import { revokeUserSessions } from '../iam';
import { lookupMerchant } from '../merchants';
import { recordUserLink } from '../iam';
import {
  lookupUser,
  lookupUserMerchant,
  findUsers,
  lockUser,
  toManagedUser,
  updateUserRow,
  type UserScope,
} from './users.repository';

/** The audit log's name for every user account, whatever its type. */
export const USER_ENTITY = 'user';

type Page<T> = { data: T[]; total: number };
/** Bodies as the route's schema parsed them. */
export type CreateUserInput = z.output<typeof createUserBodySchema>;
export type UpdateUserInput = z.output<typeof updateUserBodySchema>;

/**
 * A duplicate username or email, whether found by the database's unique indexes (also when two
 * requests race) or already mapped by createUserAccount, answers USERNAME_EXISTS / EMAIL_EXISTS.
 */
function duplicateCode(error: unknown): 'USERNAME_EXISTS' | 'EMAIL_EXISTS' | null {
  if (isAppError(error)) {
    if (error.code === 'USERNAME_ALREADY_EXISTS') return 'USERNAME_EXISTS';
    if (error.code === 'EMAIL_ALREADY_EXISTS') return 'EMAIL_EXISTS';
    return null;
  }
  if (sqlState(error) !== '23505') return null;
  const constraint = violatedConstraint(error);
  if (constraint === 'users_username_key') return 'USERNAME_EXISTS';
  if (constraint === 'users_email_key') return 'EMAIL_EXISTS';
  return null;
}

async function withDuplicatesMapped<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const code = duplicateCode(error);
    if (code) throw new AppError(code, { cause: error });
    throw error;
  }
}

function assertPasswordsMatch(password: string | undefined, confirm: string | undefined): void {
  if (confirm !== undefined && password !== undefined && confirm !== password) {
    throw new AppError('PASSWORD_NOT_MATCH', {
      metadata: { confirm_password: 'v.password_match' },
    });
  }
}

async function viewOf(tx: Tx, id: number, scope: UserScope, now: Date): Promise<ManagedUser> {
  const row = await lookupUser(tx, id, scope);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return toManagedUser(row, now);
}

/**
 * Why a user is outside a scope (DESIGN 2). For a merchant admin: another merchant's user, or no
 * user at all, is 404 RECORD_NOT_FOUND (ids of other tenants cannot be probed); a user of no
 * merchant (admin, Group HR, company roles) or a merchant admin of its own merchant is 403
 * PERMISSION_DENIED. For the admin's screens anyone outside is simply not found.
 */
async function outOfScope(tx: Executor, id: number, scope: UserScope): Promise<AppError> {
  if (scope.merchantId === undefined) return new AppError('RECORD_NOT_FOUND');
  const other = await lookupUserMerchant(tx, id);
  const isOurs = other && (other.merchantId === null || other.merchantId === scope.merchantId);
  return new AppError(isOurs ? 'PERMISSION_DENIED' : 'RECORD_NOT_FOUND');
}

export async function listAccounts(
  { database, clock }: ServiceDeps,
  filter: Parameters<typeof findUsers>[1],
): Promise<Page<ManagedUser>> {
  const { rows, total } = await findUsers(database.db, filter);
  const now = clock.now();
  return { data: rows.map((row) => toManagedUser(row, now)), total };
}

/** More to do in the transaction that creates an account (an invitation, say). */
export type AfterCreate = (tx: Tx, user: ManagedUser) => Promise<void>;

export interface NewAccountInput {
  username: string;
  email: string;
  password: string;
  confirmPassword?: string | undefined;
  type: Role;
  status: Status;
  merchantId?: number | undefined;
  companyId?: number | undefined;
}

/**
 * Creates an account of a managed type, with its audit row, in one transaction. The merchant or
 * company it belongs to must exist (404 RECORD_NOT_FOUND otherwise).
 */
export async function createAccount(
  { database, clock }: ServiceDeps,
  actor: AuditActor,
  input: NewAccountInput,
  afterCreate?: AfterCreate,
): Promise<ManagedUser> {
  assertPasswordsMatch(input.password, input.confirmPassword);
  const scope: UserScope = { types: [input.type] };
  return withDuplicatesMapped(() =>
    inTransaction(database, async (tx) => {
      if (input.merchantId !== undefined && !(await lookupMerchant(tx, input.merchantId))) {
        throw new AppError('RECORD_NOT_FOUND');
      }
      if (
        input.companyId !== undefined &&
        !(await lookupCompany(tx, { kind: 'all' }, input.companyId))
      ) {
        throw new AppError('RECORD_NOT_FOUND');
      }
      const created = await createUserAccount(tx, {
        username: input.username,
        email: input.email,
        password: input.password,
        type: input.type,
        status: input.status,
        merchantId: input.merchantId ?? null,
        companyId: input.companyId ?? null,
      });
      const after = await viewOf(tx, created.id, scope, clock.now());
      await recordUserLink(tx, {
        actorUserId: actor.userId,
        targetUserId: created.id,
        kind: 'created',
        at: clock.now(),
      });
      await recordAudit(tx, {
        actor,
        action: 'create',
        entityType: USER_ENTITY,
        entityId: created.id,
        after,
        at: clock.now(),
      });
      await afterCreate?.(tx, after);
      return after;
    }),
  );
}

/**
 * More to do on an existing account (a new set-password link, say), in one transaction with its
 * row locked; an account outside the scope is refused as outOfScope says. Answers the account as
 * it is afterwards.
 */
export async function changeAccountWith(
  { database, clock }: ServiceDeps,
  id: number,
  scope: UserScope,
  change: (tx: Tx) => Promise<void>,
): Promise<ManagedUser> {
  return inTransaction(database, async (tx) => {
    const row = await lockUser(tx, id, scope);
    if (!row) throw await outOfScope(tx, id, scope);
    await change(tx);
    return viewOf(tx, id, scope, clock.now());
  });
}

export interface AccountRules extends UserScope {
  /** Spec 5 'Only merchant admin can be updated': merchant supervisors and staff are not edited. */
  onlyMerchantAdminEditable?: boolean;
}

const refuseOwnDeactivation = (actor: AuditActor, id: number) => {
  if (actor.userId === id) throw new AppError('CANNOT_CHANGE_OWN_ACCOUNT');
};

/**
 * Edits username, email, status and (when given) the password. A new password or a
 * deactivation ends every session of the user. A user setting its own password must give its
 * current one (`current_password`, checked and throttled like a sign-in; decision 0070).
 */
export async function updateAccount(
  deps: ServiceDeps,
  actor: AuditActor,
  id: number,
  rules: AccountRules,
  body: UpdateUserInput,
): Promise<ManagedUser> {
  const { database, clock } = deps;
  const { password } = body;
  assertPasswordsMatch(password, body.confirm_password);
  if (password !== undefined && actor.userId === id) {
    // Outside the caller's scope stays its 403/404, before any password is looked at.
    if (!(await lookupUser(database.db, id, rules))) throw await outOfScope(database.db, id, rules);
    await confirmCurrentPassword(deps, {
      userId: id,
      currentPassword: body.current_password,
      ip: actor.ip,
    });
  }
  return withDuplicatesMapped(() =>
    inTransaction(database, async (tx) => {
      const row = await lockUser(tx, id, rules);
      if (!row) throw await outOfScope(tx, id, rules);
      const type = row.type as Role;
      if (rules.onlyMerchantAdminEditable && isMerchantRole(type) && type !== 'merchant_admin') {
        throw new AppError('ONLY_MERCHANT_ADMIN_UPDATABLE');
      }
      const isDeactivation = row.status === 'active' && body.status === 'inactive';
      if (isDeactivation) refuseOwnDeactivation(actor, id);

      const before = await viewOf(tx, id, rules, clock.now());
      const at = clock.now();
      await updateUserRow(tx, id, {
        username: body.username,
        email: body.email,
        status: body.status,
        updatedAt: at,
      });
      if (password !== undefined) {
        await setPassword(tx, clock, { userId: id, password });
        await recordUserLink(tx, {
          actorUserId: actor.userId,
          targetUserId: id,
          kind: 'password_set',
          at,
        });
      } else if (isDeactivation) {
        await revokeUserSessions(tx, id);
      }
      const after = await viewOf(tx, id, rules, clock.now());
      await recordAudit(tx, {
        actor,
        action: 'update',
        entityType: USER_ENTITY,
        entityId: id,
        before,
        after: password !== undefined ? { ...after, password_changed: true } : after,
        at,
      });
      return after;
    }),
  );
}

/** Activates or deactivates an account; deactivating ends its sessions. */
export async function changeAccountStatus(
  { database, clock }: ServiceDeps,
  actor: AuditActor,
  id: number,
  rules: AccountRules,
  status: Status,
): Promise<ManagedUser> {
  return inTransaction(database, async (tx) => {
    const row = await lockUser(tx, id, rules);
    if (!row) throw await outOfScope(tx, id, rules);
    if (status === 'inactive') refuseOwnDeactivation(actor, id);
    const before = await viewOf(tx, id, rules, clock.now());
    const at = clock.now();
    await updateUserRow(tx, id, { status, updatedAt: at });
    if (status === 'inactive') await revokeUserSessions(tx, id);
    const after = await viewOf(tx, id, rules, clock.now());
    await recordAudit(tx, {
      actor,
      action: 'status_change',
      entityType: USER_ENTITY,
      entityId: id,
      before,
      after,
      at,
    });
    return after;
  });
}

/**
 * Deletes an account softly (decision 0005): the row stays for the ledger and audit rows that
 * name it, but it is inactive, out of every list and of sign-in, its sessions end, and its
 * username and email are free again.
 */
export async function deleteAccount(
  { database, clock }: ServiceDeps,
  actor: AuditActor,
  id: number,
  rules: AccountRules,
): Promise<void> {
  await inTransaction(database, async (tx) => {
    const row = await lockUser(tx, id, rules);
    if (!row) throw await outOfScope(tx, id, rules);
    refuseOwnDeactivation(actor, id);
    const before = await viewOf(tx, id, rules, clock.now());
    const at = clock.now();
    await updateUserRow(tx, id, { status: 'inactive', deletedAt: at, updatedAt: at });
    await revokeUserSessions(tx, id);
    await recordAudit(tx, {
      actor,
      action: 'delete',
      entityType: USER_ENTITY,
      entityId: id,
      before,
      after: null,
      at,
    });
  });
}

// User Management (/users): platform users and merchant staff for the admin; its own merchant's
// supervisors and staff for a merchant admin (DESIGN 2, decision 0017).

/**
 * The users a caller of /users manages: the admin every managed type (merchant supervisors and
 * staff not editable, spec 5); a merchant admin the supervisors and staff of its own merchant.
 */
export function usersScopeOf(user: AuthUser): AccountRules {
  const types = userTypesManagedBy(user.type);
  const tenant = scopeOf(user);
  if (types.length === 0) throw new AppError('PERMISSION_DENIED');
  if (tenant.kind === 'all') return { types, onlyMerchantAdminEditable: true };
  if (tenant.kind === 'merchant') return { types, merchantId: tenant.merchantId };
  throw new AppError('PERMISSION_DENIED');
}

export const listUsers = (
  deps: ServiceDeps,
  scope: UserScope,
  query: UserListQuery,
): Promise<Page<ManagedUser>> =>
  listAccounts(deps, {
    scope,
    types: query.type,
    merchantId: query.merchant_id,
    ...pagedFilterOf(query),
  });

/** Group HR users (/hrs). */
export const listHrs = (deps: ServiceDeps, query: HrListQuery): Promise<Page<ManagedUser>> =>
  listAccounts(deps, {
    scope: { types: ['super_hr'] },
    search: query.search || undefined,
    status: query.status,
    page: query.page,
    pageSize: query.page_size,
  });

export async function getUser(
  { database, clock }: ServiceDeps,
  scope: UserScope,
  id: number,
): Promise<ManagedUser> {
  const row = await lookupUser(database.db, id, scope);
  if (!row) throw await outOfScope(database.db, id, scope);
  return toManagedUser(row, clock.now());
}

/**
 * The merchant of a new merchant user. The admin names it (BODY_INVALID without it); a merchant
 * admin's own is implied, and naming another merchant is not found, as for any other tenant's id.
 */
function merchantOfNewUser(scope: UserScope, body: CreateUserInput): number | undefined {
  if (!isMerchantRole(body.type)) return undefined;
  if (scope.merchantId === undefined) {
    if (body.merchant_id === undefined) {
      throw new AppError('BODY_INVALID', { metadata: { merchant_id: 'v.merchant_required' } });
    }
    return body.merchant_id;
  }
  if (body.merchant_id !== undefined && body.merchant_id !== scope.merchantId) {
    throw new AppError('RECORD_NOT_FOUND');
  }
  return scope.merchantId;
}

export async function createUser(
  deps: ServiceDeps,
  actor: AuditActor,
  scope: UserScope,
  body: CreateUserInput,
  afterCreate?: AfterCreate,
): Promise<ManagedUser> {
  if (!scope.types.includes(body.type)) throw new AppError('PERMISSION_DENIED');
  return createAccount(
    deps,
    actor,
    {
      username: body.username,
      email: body.email,
      password: body.password,
      confirmPassword: body.confirm_password,
      type: body.type,
      status: body.status,
      merchantId: merchantOfNewUser(scope, body),
    },
    afterCreate,
  );
}

export const updateUser = (
  deps: ServiceDeps,
  actor: AuditActor,
  rules: AccountRules,
  id: number,
  body: UpdateUserInput,
): Promise<ManagedUser> => updateAccount(deps, actor, id, rules, body);

export const setUserStatus = (
  deps: ServiceDeps,
  actor: AuditActor,
  rules: AccountRules,
  id: number,
  status: Status,
): Promise<ManagedUser> => changeAccountStatus(deps, actor, id, rules, status);

export const deleteUser = (
  deps: ServiceDeps,
  actor: AuditActor,
  rules: AccountRules,
  id: number,
): Promise<void> => deleteAccount(deps, actor, id, rules);
