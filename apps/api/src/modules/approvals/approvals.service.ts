// Four-eyes approvals (DESIGN 6, decision 0039): a top-up or distribution at or above its
// threshold waits, pending, for another person; approving applies it once, in one transaction.
import {
  APPROVAL_EXPIRY_DAYS,
  type Approval,
  type ApprovalKind,
  type ApprovalListQuery,
  type ApprovalPolicy,
  type ApprovalPolicyBody,
  type ApprovalSelfDetails,
  type ApprovalStatus,
  type ApproveApprovalBody,
  type PayeeChange,
  type RejectApprovalBody,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { assertRecentAuthentication, type StepUpConfig } from '../../lib/step-up';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import { iso, isoOrNull } from '../../lib/numbers';
import type { AuthUser } from '../../lib/principal';
import { approvalScopeOf } from '../../lib/scope';
import { inTransaction, transactionOf, type TransactionRunner } from '../../lib/transaction';
import { applyDistribution, applyTopUp } from '../ledger';
import { lockCompany } from '../ledger';
import { findUserLink, linkedAmong, linkWindowStart } from '../iam';
import { recordEvent } from '../webhooks';
import {
  countApprovalRows,
  countOtherDeciders,
  lookupApprovalRow,
  findApprovalRows,
  lookupCompanyName,
  findCurrentPayees,
  findPayloadEmployees,
  getApprovalPolicy as readPolicy,
  insertApproval,
  lockApprovalPolicy,
  lockApprovalRow,
  lockExpiredApprovals,
  setApprovalDecision,
  sumAppliedWithoutApproval,
  updateApprovalPolicy,
  type ApprovalPolicyRow,
  type ApprovalRow,
} from './approvals.repository';

const DAY_MS = 86_400_000;
const EXPIRED_PER_RUN = 500;
/** The splitting rule's window: what a requester applied without approval this long before counts. */
const SPLIT_WINDOW_MS = DAY_MS;

const toPolicy = (row: ApprovalPolicyRow): ApprovalPolicy => ({
  top_up_threshold: row.topUpThreshold,
  distribution_threshold: row.distributionThreshold,
  updated_at: isoOrNull(row.updatedAt),
  updated_by: row.updatedBy,
});

/** The kinds each role decides (a company admin only its own company's). */
const POWER_KINDS: Partial<Record<AuthUser['type'], ApprovalKind[]>> = {
  admin: ['top_up'],
  super_hr: ['distribution'],
  company_admin: ['distribution'],
};

/** Whether this user holds the power to decide this request (not counting who asked). */
function hasPower(user: Pick<AuthUser, 'type' | 'companyId'>, row: ApprovalRow): boolean {
  if (row.kind === 'top_up') return user.type === 'admin';
  return (
    user.type === 'super_hr' || (user.type === 'company_admin' && user.companyId === row.companyId)
  );
}

/** What a view of a request adds from outside its row: links and the payees as they are now. */
interface ViewContext {
  /** The viewer is linked to the requester (decision 0069): it cannot decide this one. */
  linked?: boolean;
  payeeChanges?: PayeeChange[];
}

function toApproval(
  row: ApprovalRow,
  viewer: Pick<AuthUser, 'id' | 'type' | 'companyId'> | null,
  context: ViewContext = {},
) {
  const approval: Approval = {
    id: row.id,
    kind: row.kind,
    status: row.status,
    requested_by: row.requestedBy,
    requested_by_username: row.requestedByUsername,
    company_id: row.companyId,
    payload: row.payload,
    total: row.total,
    created_at: iso(row.createdAt),
    expires_at: iso(row.expiresAt),
    decided_by: row.decidedBy,
    decided_by_username: row.decidedByUsername,
    decided_at: isoOrNull(row.decidedAt),
    reason: row.reason,
    can_decide:
      viewer !== null &&
      row.status === 'pending' &&
      viewer.id !== row.requestedBy &&
      !context.linked &&
      hasPower(viewer, row),
    payee_changes: context.payeeChanges ?? [],
  };
  return approval;
}

/** What the audit log keeps of a request (the screen's own shape, without the viewer's fields). */
const auditView = (row: ApprovalRow) => {
  const { can_decide: _ignored, payee_changes: _now, ...rest } = toApproval(row, null);
  return rest;
};

/**
 * The payees of a distribution whose staff number or name is no longer what the request showed
 * (by the employee's internal id, the wallet the request is bound to), as they are now.
 */
function payeeChangesOf(
  row: ApprovalRow,
  now: Map<number, { staffNumber: string; name: string | null }>,
): PayeeChange[] {
  const changes: PayeeChange[] = [];
  for (const item of row.payload.items ?? []) {
    const current = now.get(item.employee_id);
    if (!current) continue;
    const changed: PayeeChange['changed'] = [];
    if (current.staffNumber !== item.staff_number) changed.push('staff_number');
    if (current.name !== item.name) changed.push('name');
    if (changed.length === 0) continue;
    changes.push({
      employee_id: item.employee_id,
      staff_number_then: item.staff_number,
      name_then: item.name,
      staff_number: current.staffNumber,
      name: current.name,
      changed,
    });
  }
  return changes;
}

/**
 * A request's webhook event (decision 0084), in the transaction that made or decided it: a
 * distribution's go to its company's endpoints too, a top-up's to the admin's only (a company
 * admin does not see top-up requests, lib/scope approvalScopeOf). No payee list: a count.
 */
function recordApprovalEvent(
  tx: Tx,
  type: 'approval.requested' | 'approval.decided',
  row: ApprovalRow,
  at: Date,
) {
  return recordEvent(tx, {
    type,
    companyId: row.companyId,
    toCompany: row.kind === 'distribution',
    data: {
      approval_id: row.id,
      kind: row.kind,
      status: row.status,
      total: row.total,
      employees: row.kind === 'distribution' ? (row.payload.items?.length ?? 0) : null,
      note: row.payload.note,
      requested_by: row.requestedByUsername,
      requested_at: iso(row.createdAt),
      expires_at: iso(row.expiresAt),
      decided_by: row.decidedByUsername,
      decided_at: isoOrNull(row.decidedAt),
      reason: row.reason,
    },
    at,
  });
}

/** The payee changes of each pending distribution among `rows`, with one query. */
async function payeeChangesByRow(
  executor: Parameters<typeof findCurrentPayees>[0],
  rows: ApprovalRow[],
): Promise<Map<number, PayeeChange[]>> {
  const pending = rows.filter((r) => r.kind === 'distribution' && r.status === 'pending');
  const ids = [
    ...new Set(pending.flatMap((r) => (r.payload.items ?? []).map((i) => i.employee_id))),
  ];
  const now = await findCurrentPayees(executor, ids);
  return new Map(pending.map((r) => [r.id, payeeChangesOf(r, now)]));
}

export async function getApprovalPolicy({ database }: ServiceDeps): Promise<ApprovalPolicy> {
  return toPolicy(await readPolicy(database.db));
}

/** PUT /sys/approval-policy (admin): both thresholds at once; null turns a rule off. */
export async function setApprovalPolicy(
  { database, clock }: ServiceDeps,
  actor: AuditActor,
  body: ApprovalPolicyBody,
): Promise<ApprovalPolicy> {
  const at = clock.now();
  return inTransaction(database, (tx) => setApprovalPolicyIn(tx, actor, body, at));
}

/** The policy change inside a caller's transaction (the route's, or the demo seed's), audited. */
export async function setApprovalPolicyIn(
  tx: Tx,
  actor: AuditActor | null,
  body: ApprovalPolicyBody,
  at: Date,
): Promise<ApprovalPolicy> {
  const before = toPolicy(await lockApprovalPolicy(tx));
  const after = toPolicy(
    await updateApprovalPolicy(
      tx,
      { topUpThreshold: body.top_up_threshold, distributionThreshold: body.distribution_threshold },
      at,
      actor?.userId ?? null,
    ),
  );
  await recordAudit(tx, {
    actor,
    action: 'update',
    entityType: 'approval_policy',
    entityId: null,
    before,
    after,
    at,
  });
  return after;
}

export interface ApprovalRequest {
  kind: ApprovalKind;
  requester: AuthUser;
  actor: AuditActor;
  companyId: number;
  total: number;
  note?: string | undefined;
  /** A top-up's amount. */
  amount?: number;
  /** A distribution's lines. */
  items?: { employee_id: number; amount: number }[];
  at: Date;
  /**
   * Step-up (DESIGN 9): a request reaching the threshold needs its requester's sign-in or
   * re-authentication from within this window. Null only for the demo seed, which no one types.
   */
  stepUp: StepUpConfig | null;
}

/**
 * Inside the request's transaction: when the policy's threshold for this kind is on and the total
 * reaches it, records a pending approval (no token moves) and returns it; otherwise returns null
 * and the caller applies the request at once. Refused with 409 APPROVAL_NOT_CONFIGURED when no
 * other active person could decide it.
 */
export async function requestApprovalIfDue(
  tx: Tx,
  request: ApprovalRequest,
): Promise<Approval | null> {
  const policy = await readPolicy(tx);
  const threshold =
    request.kind === 'top_up' ? policy.topUpThreshold : policy.distributionThreshold;
  if (!Number.isSafeInteger(request.total)) throw new AppError('TOTAL_EXCEEDS_AVAILABLE');
  if (threshold === null) return null;
  if (request.total < threshold) {
    // Splitting is held like one request (decision 0069): what this requester applied to this
    // company without approval in the last 24 hours counts with it. The company's row is locked
    // first (the ledger would lock it next anyway), so two parts sent at once take turns and the
    // second sees the first.
    await lockCompany(tx, request.companyId);
    const applied = await sumAppliedWithoutApproval(tx, {
      kind: request.kind,
      companyId: request.companyId,
      actorUserId: request.requester.id,
      since: new Date(request.at.getTime() - SPLIT_WINDOW_MS),
    });
    if (request.total + applied < threshold) return null;
  }

  // Step-up (DESIGN 9): a request at or over the threshold is money on this person's word.
  if (request.stepUp) assertRecentAuthentication(request.requester, request.at, request.stepUp);
  const companyName = await lookupCompanyName(tx, request.companyId);
  if (companyName === undefined) throw new AppError('RECORD_NOT_FOUND');
  let items: Approval['payload']['items'];
  if (request.items) {
    const ids = [...new Set(request.items.map((i) => i.employee_id))];
    const staff = new Map(
      (await findPayloadEmployees(tx, request.companyId, ids)).map((e) => [e.id, e]),
    );
    if (staff.size !== ids.length) throw new AppError('RECORD_NOT_FOUND');
    items = request.items.map((i) => ({
      employee_id: i.employee_id,
      staff_number: staff.get(i.employee_id)!.staffNumber,
      name: staff.get(i.employee_id)!.name,
      amount: i.amount,
    }));
  }
  const others = await countOtherDeciders(tx, {
    kind: request.kind,
    companyId: request.companyId,
    exceptUserId: request.requester.id,
    unlinkedSince: linkWindowStart(request.at),
  });
  if (others === 0) throw new AppError('APPROVAL_NOT_CONFIGURED');

  const row = await insertApproval(tx, {
    kind: request.kind,
    companyId: request.companyId,
    requestedBy: request.requester.id,
    payload: {
      company_id: request.companyId,
      company_name: companyName,
      note: request.note ?? null,
      ...(request.amount !== undefined ? { amount: request.amount } : {}),
      ...(items ? { items } : {}),
    },
    total: request.total,
    createdAt: request.at,
    expiresAt: new Date(request.at.getTime() + APPROVAL_EXPIRY_DAYS * DAY_MS),
  });
  await recordAudit(tx, {
    actor: request.actor,
    action: 'request_approval',
    entityType: 'approval',
    entityId: row.id,
    after: auditView(row),
    at: request.at,
  });
  await recordApprovalEvent(tx, 'approval.requested', row, request.at);
  return toApproval(row, request.requester);
}

const PAGE = (query: Pick<ApprovalListQuery, 'page' | 'page_size'>) => ({
  limit: query.page_size,
  offset: (query.page - 1) * query.page_size,
});

/** GET /approvals: the caller's scope (lib/scope approvalScopeOf), newest first. */
export async function listApprovals(
  { database, clock }: ServiceDeps,
  user: AuthUser,
  query: ApprovalListQuery,
): Promise<{ data: Approval[]; total: number }> {
  const scope = approvalScopeOf(user);
  const since = linkWindowStart(clock.now());
  const filter = {
    // To decide: only the kinds this user has the power over, and not its own requests.
    scope: query.to_decide
      ? { ...scope, kinds: scope.kinds.filter((kind) => POWER_KINDS[user.type]?.includes(kind)) }
      : scope,
    statuses: query.status?.split(',') as ApprovalStatus[] | undefined,
    kind: query.kind,
    exceptRequestedBy: query.to_decide ? user.id : undefined,
    exceptLinkedSince: query.to_decide ? since : undefined,
  };
  const [rows, total] = await Promise.all([
    findApprovalRows(database.db, filter, PAGE(query)),
    countApprovalRows(database.db, filter),
  ]);
  const pendingRequesters = [
    ...new Set(rows.filter((r) => r.status === 'pending').map((r) => r.requestedBy)),
  ];
  const [linked, changes] = await Promise.all([
    linkedAmong(database.db, user.id, pendingRequesters, since),
    payeeChangesByRow(database.db, rows),
  ]);
  return {
    data: rows.map((row) =>
      toApproval(row, user, {
        linked: linked.has(row.requestedBy),
        payeeChanges: changes.get(row.id) ?? [],
      }),
    ),
    total,
  };
}

/** The approval if the user's scope holds it; 404 otherwise (as any record out of scope). */
function inScope(user: AuthUser, row: ApprovalRow | undefined): ApprovalRow {
  const scope = approvalScopeOf(user);
  if (
    !row ||
    !scope.kinds.includes(row.kind) ||
    (scope.companyId !== undefined && scope.companyId !== row.companyId)
  ) {
    throw new AppError('RECORD_NOT_FOUND');
  }
  return row;
}

/** Locks the approval and checks that this user may decide it now. */
async function lockForDecision(tx: Tx, user: AuthUser, id: number, now: Date) {
  const row = inScope(user, await lockApprovalRow(tx, id));
  if (row.requestedBy === user.id) {
    throw new AppError('APPROVAL_SELF', { details: { reason: 'same_user' } });
  }
  if (!hasPower(user, row)) throw new AppError('PERMISSION_DENIED');
  // Two linked people are one pair of eyes (decision 0069): either made, invited, set the password
  // of or removed the second factor of the other's account in the last 30 days.
  const link = await findUserLink(tx, user.id, row.requestedBy, linkWindowStart(now));
  if (link) {
    const details: ApprovalSelfDetails = {
      reason: 'linked',
      link: {
        kind: link.kind,
        actor_user_id: link.actorUserId,
        target_user_id: link.targetUserId,
        at: link.at.toISOString(),
      },
    };
    throw new AppError('APPROVAL_SELF', { details });
  }
  // Past its expiry it is no longer pending, whether or not the timer has marked it yet.
  if (row.status !== 'pending' || row.expiresAt <= now) throw new AppError('APPROVAL_NOT_PENDING');
  return row;
}

/**
 * POST /approvals/{id}/approve: in one transaction, lock the approval, apply the request through
 * the ledger with the balances of this moment, and mark it approved. Concurrent approvals queue on
 * the row lock; only the first finds it pending, so it is applied exactly once. When the ledger
 * refuses (a balance no longer covers it), everything rolls back and it stays pending.
 *
 * A distribution is bound to its wallets (employee ids); when a payee's staff number or name changed
 * since the request, the approver must have confirmed each changed payee as it is now
 * (`confirm_payees`), else 409 APPROVAL_PAYEE_CHANGED with the changes in `details` and nothing is
 * applied. The check runs after the ledger locked the employees, so no rename slips in between.
 */
export async function approveApproval(
  { database, clock }: ServiceDeps,
  user: AuthUser,
  actor: AuditActor,
  id: number,
  body: ApproveApprovalBody = {},
  transaction: TransactionRunner = transactionOf(database),
): Promise<Approval> {
  return transaction(async (tx) => {
    const at = clock.now();
    const row = await lockForDecision(tx, user, id, at);
    const { payload } = row;
    if (row.kind === 'top_up') {
      await applyTopUp(tx, {
        actor,
        body: {
          company_id: payload.company_id,
          amount: payload.amount!,
          ...(payload.note !== null ? { note: payload.note } : {}),
        },
        at,
        approvalId: row.id,
      });
    } else {
      await applyDistribution(tx, {
        actor,
        companyId: payload.company_id,
        body: {
          items: payload.items!.map(({ employee_id, amount }) => ({ employee_id, amount })),
          ...(payload.note !== null ? { note: payload.note } : {}),
        },
        at,
        approvalId: row.id,
      });
    }
    // The employees' rows are locked by the distribution now: what is read is what was paid.
    const changes = (await payeeChangesByRow(tx, [row])).get(row.id) ?? [];
    if (!payeesConfirmed(changes, body.confirm_payees)) {
      throw new AppError('APPROVAL_PAYEE_CHANGED', { details: { changes } });
    }
    const after = await setApprovalDecision(tx, row.id, {
      status: 'approved',
      decidedBy: user.id,
      decidedAt: at,
    });
    await recordAudit(tx, {
      actor,
      action: 'approve',
      entityType: 'approval',
      entityId: row.id,
      before: auditView(row),
      after: {
        ...auditView(after),
        ...(changes.length ? { payee_changes_confirmed: changes } : {}),
      },
      at,
    });
    await recordApprovalEvent(tx, 'approval.decided', after, at);
    return toApproval(after, user, { payeeChanges: changes });
  });
}

/** Whether every changed payee was confirmed as it is now (staff number and name). */
function payeesConfirmed(
  changes: PayeeChange[],
  confirmed: ApproveApprovalBody['confirm_payees'],
): boolean {
  if (changes.length === 0) return true;
  const seen = new Map((confirmed ?? []).map((p) => [p.employee_id, p]));
  return changes.every((change) => {
    const payee = seen.get(change.employee_id);
    return payee?.staff_number === change.staff_number && payee.name === change.name;
  });
}

/** POST /approvals/{id}/reject { reason }: nothing is applied; the reason is kept. */
export async function rejectApproval(
  { database, clock }: ServiceDeps,
  user: AuthUser,
  actor: AuditActor,
  id: number,
  body: RejectApprovalBody,
  transaction: TransactionRunner = transactionOf(database),
): Promise<Approval> {
  return transaction(async (tx) => {
    const at = clock.now();
    const row = await lockForDecision(tx, user, id, at);
    const after = await setApprovalDecision(tx, row.id, {
      status: 'rejected',
      decidedBy: user.id,
      decidedAt: at,
      reason: body.reason,
    });
    await recordAudit(tx, {
      actor,
      action: 'reject',
      entityType: 'approval',
      entityId: row.id,
      before: auditView(row),
      after: auditView(after),
      at,
    });
    await recordApprovalEvent(tx, 'approval.decided', after, at);
    return toApproval(after, user);
  });
}

/**
 * The jobs timer's sweep: every pending request past its expiry (7 days after it was made)
 * becomes expired, audited with no actor. Rows being decided right now are skipped (SKIP LOCKED)
 * and looked at again next run; safe on every instance at once.
 */
export async function expireApprovals({ database, clock }: ServiceDeps): Promise<number[]> {
  const expired: number[] = [];
  for (;;) {
    const batch = await inTransaction(database, async (tx) => {
      const at = clock.now();
      const ids = await lockExpiredApprovals(tx, at, EXPIRED_PER_RUN);
      for (const id of ids) {
        const before = (await lookupApprovalRow(tx, id))!;
        const after = await setApprovalDecision(tx, id, {
          status: 'expired',
          decidedBy: null,
          decidedAt: at,
        });
        await recordAudit(tx, {
          actor: null,
          action: 'expire',
          entityType: 'approval',
          entityId: id,
          before: auditView(before),
          after: auditView(after),
          at,
        });
        await recordApprovalEvent(tx, 'approval.decided', after, at);
      }
      return ids;
    });
    expired.push(...batch);
    if (batch.length < EXPIRED_PER_RUN) return expired;
  }
}
