import type {
  CreateMerchantBody,
  Merchant,
  MerchantListQuery,
  Status,
  UpdateMerchantBody,
} from '@app/contract';
import { createMerchantBodySchema } from '@app/contract';
import { AppError } from '../../lib/app-error';
import { pagedFilterOf } from '../../lib/sql';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { Executor } from '../../db/client';
import type { ServiceDeps } from '../../lib/deps';
import { inTransaction, sqlState, violatedConstraint } from '../../lib/transaction';
import {
  lookupMerchant,
  findMerchants,
  insertMerchant,
  softDeleteMerchant,
  toMerchant,
  updateMerchant,
} from './merchants.repository';

// Other modules check merchants through this.

function codeConflict(error: unknown): unknown {
  if (sqlState(error) === '23505' && violatedConstraint(error) === 'merchants_code_key') {
    return new AppError('MERCHANT_CODE_ALREADY_EXISTS');
  }
  return error;
}

/** Codes are compared case-insensitively (a unique index on upper(code)) and never reused. */
export async function createMerchantIn(
  executor: Executor,
  { clock }: Pick<ServiceDeps, 'clock'>,
  input: CreateMerchantBody,
  actor: AuditActor | null = null,
): Promise<Merchant> {
  const body = createMerchantBodySchema.parse(input);
  const at = clock.now();
  try {
    const merchant = toMerchant(await insertMerchant(executor, { ...body, at }));
    await recordAudit(executor, {
      actor,
      action: 'create',
      entityType: 'merchant',
      entityId: merchant.id,
      before: null,
      after: merchant,
      at,
    });
    return merchant;
  } catch (error) {
    throw codeConflict(error);
  }
}

export async function createMerchant(
  deps: ServiceDeps,
  input: CreateMerchantBody,
  actor: AuditActor | null = null,
): Promise<Merchant> {
  try {
    return await inTransaction(deps.database, (tx) => createMerchantIn(tx, deps, input, actor));
  } catch (error) {
    throw codeConflict(error);
  }
}

export async function getMerchant({ database }: ServiceDeps, id: number): Promise<Merchant> {
  const row = await lookupMerchant(database.db, id);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return toMerchant(row);
}

export async function listMerchants(
  { database }: ServiceDeps,
  query: MerchantListQuery,
): Promise<{ data: Merchant[]; total: number }> {
  const { rows, total } = await findMerchants(database.db, {
    ...pagedFilterOf(query),
    category: query.category,
  });
  return { data: rows.map(toMerchant), total };
}

/** Changes a merchant in one transaction with its audit row; a deleted one is not found. */
function changeMerchant(
  { database, clock }: ServiceDeps,
  actor: AuditActor | null,
  id: number,
  action: 'update' | 'status_change',
  values: UpdateMerchantBody | { status: Status },
): Promise<Merchant> {
  const at = clock.now();
  return inTransaction(database, async (tx) => {
    const before = await lookupMerchant(tx, id);
    if (!before) throw new AppError('RECORD_NOT_FOUND');
    const after = toMerchant((await updateMerchant(tx, id, { ...values, updatedAt: at }))!);
    await recordAudit(tx, {
      actor,
      action,
      entityType: 'merchant',
      entityId: id,
      before: toMerchant(before),
      after,
      at,
    });
    return after;
  });
}

/** PUT /merchants/{id}: name and status; the code is immutable. */
export const updateMerchantDetails = (
  deps: ServiceDeps,
  actor: AuditActor | null,
  id: number,
  body: UpdateMerchantBody,
): Promise<Merchant> => changeMerchant(deps, actor, id, 'update', body);

/** An inactive merchant's terminals are refused (MERCHANT_INACTIVE). */
export const setMerchantStatus = (
  deps: ServiceDeps,
  id: number,
  status: Status,
  actor: AuditActor | null = null,
): Promise<Merchant> => changeMerchant(deps, actor, id, 'status_change', { status });

/**
 * DELETE /merchants/{id}: a soft delete (orders and ledger rows reference merchants). The merchant
 * and its terminals become inactive and hidden, so the terminal API refuses them from now on.
 */
export async function deleteMerchant(
  { database, clock }: ServiceDeps,
  actor: AuditActor | null,
  id: number,
): Promise<void> {
  const at = clock.now();
  await inTransaction(database, async (tx) => {
    const before = await lookupMerchant(tx, id);
    if (!before) throw new AppError('RECORD_NOT_FOUND');
    await softDeleteMerchant(tx, id, at);
    await recordAudit(tx, {
      actor,
      action: 'delete',
      entityType: 'merchant',
      entityId: id,
      before: toMerchant(before),
      after: null,
      at,
    });
  });
}
