import type {
  CreateTerminalBody,
  Status,
  Terminal,
  TerminalListQuery,
  TerminalWithKey,
  UpdateTerminalBody,
} from '@app/contract';
import { createTerminalBodySchema } from '@app/contract';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { Executor } from '../../db/client';
import type { ServiceDeps } from '../../lib/deps';
import { inTransaction, sqlState, violatedConstraint } from '../../lib/transaction';
import { lookupMerchant } from '../merchants';
import { generateTerminalKey, terminalKeyFrom } from './terminal-keys';
import {
  lookupTerminal,
  findTerminals,
  insertTerminal,
  toTerminal,
  updateTerminal,
} from './terminals.repository';

function codeConflict(error: unknown): unknown {
  if (sqlState(error) === '23505' && violatedConstraint(error) === 'terminals_merchant_code_key') {
    return new AppError('TERMINAL_CODE_ALREADY_EXISTS');
  }
  return error;
}

/**
 * Creates a terminal; its API key is in this answer and nowhere else, ever (the audit row holds
 * the terminal without it). `apiKey` is for the demo programme only, whose one documented key
 * must be the same on every first start. A deleted merchant is not found.
 */
export async function createTerminalIn(
  executor: Executor,
  { clock }: Pick<ServiceDeps, 'clock'>,
  input: CreateTerminalBody,
  apiKey?: string,
  actor: AuditActor | null = null,
): Promise<TerminalWithKey> {
  const body = createTerminalBodySchema.parse(input);
  if (!(await lookupMerchant(executor, body.merchant_id))) throw new AppError('RECORD_NOT_FOUND');
  const { key, hash, prefix } = apiKey ? terminalKeyFrom(apiKey) : generateTerminalKey();
  const at = clock.now();
  try {
    const row = await insertTerminal(executor, {
      merchantId: body.merchant_id,
      code: body.code,
      name: body.name,
      status: body.status,
      apiKeyHash: hash,
      apiKeyPrefix: prefix,
      at,
    });
    const terminal = toTerminal(row);
    await recordAudit(executor, {
      actor,
      action: 'create',
      entityType: 'terminal',
      entityId: terminal.id,
      before: null,
      after: terminal,
      at,
    });
    return { ...terminal, api_key: key };
  } catch (error) {
    throw codeConflict(error);
  }
}

export async function createTerminal(
  deps: ServiceDeps,
  input: CreateTerminalBody,
  actor: AuditActor | null = null,
): Promise<TerminalWithKey> {
  try {
    return await inTransaction(deps.database, (tx) =>
      createTerminalIn(tx, deps, input, undefined, actor),
    );
  } catch (error) {
    throw codeConflict(error);
  }
}

type TerminalChange =
  | { action: 'update'; values: UpdateTerminalBody }
  | { action: 'status_change'; values: { status: Status } }
  | { action: 'rotate_key' }
  | { action: 'delete' };

/** One change of a terminal and its audit row, in one transaction; the key is never logged. */
async function changeTerminal(
  { database, clock }: ServiceDeps,
  actor: AuditActor | null,
  id: number,
  change: TerminalChange,
): Promise<TerminalWithKey | Terminal | null> {
  const at = clock.now();
  return inTransaction(database, async (tx) => {
    const before = await lookupTerminal(tx, id);
    if (!before) throw new AppError('RECORD_NOT_FOUND');
    let key: string | undefined;
    let values: Parameters<typeof updateTerminal>[2];
    switch (change.action) {
      case 'update':
      case 'status_change':
        values = { ...change.values, updatedAt: at };
        break;
      case 'rotate_key': {
        const generated = generateTerminalKey();
        key = generated.key;
        values = {
          apiKeyHash: generated.hash,
          apiKeyPrefix: generated.prefix,
          keyRotatedAt: at,
          updatedAt: at,
        };
        break;
      }
      case 'delete':
        values = { status: 'inactive', deletedAt: at, updatedAt: at };
        break;
    }
    const after = toTerminal((await updateTerminal(tx, id, values))!);
    await recordAudit(tx, {
      actor,
      action: change.action,
      entityType: 'terminal',
      entityId: id,
      before: toTerminal(before),
      after: change.action === 'delete' ? null : after,
      at,
    });
    if (change.action === 'delete') return null;
    return key === undefined ? after : { ...after, api_key: key };
  });
}

/** Replaces a terminal's key: the old one stops working at once; the new one is shown once. */
export async function rotateTerminalKey(
  deps: ServiceDeps,
  id: number,
  actor: AuditActor | null = null,
): Promise<TerminalWithKey> {
  return (await changeTerminal(deps, actor, id, { action: 'rotate_key' })) as TerminalWithKey;
}

export async function getTerminal({ database }: ServiceDeps, id: number): Promise<Terminal> {
  const row = await lookupTerminal(database.db, id);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return toTerminal(row);
}

export async function listTerminals(
  { database }: ServiceDeps,
  query: TerminalListQuery,
): Promise<{ data: Terminal[]; total: number }> {
  const { rows, total } = await findTerminals(database.db, {
    merchantId: query.merchant_id,
    status: query.status,
    search: query.search || undefined,
    page: query.page,
    pageSize: query.page_size,
  });
  return { data: rows.map(toTerminal), total };
}

export async function setTerminalStatus(
  deps: ServiceDeps,
  id: number,
  status: Status,
  actor: AuditActor | null = null,
): Promise<Terminal> {
  return (await changeTerminal(deps, actor, id, {
    action: 'status_change',
    values: { status },
  }))!;
}

/** PUT /terminals/{id}: name and status; code and merchant are immutable. */
export async function updateTerminalDetails(
  deps: ServiceDeps,
  actor: AuditActor | null,
  id: number,
  body: UpdateTerminalBody,
): Promise<Terminal> {
  return (await changeTerminal(deps, actor, id, { action: 'update', values: body }))!;
}

/** DELETE /terminals/{id}: a soft delete (orders reference terminals); refused from now on. */
export async function deleteTerminal(
  deps: ServiceDeps,
  actor: AuditActor | null,
  id: number,
): Promise<void> {
  await changeTerminal(deps, actor, id, { action: 'delete' });
}
