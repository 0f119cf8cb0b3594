// Issuing and distributing tokens inside a caller's transaction, audited with the ledger rows: the
// direct requests (tokens.service) and approved requests (approvals.service) apply them here.
import type {
  DistributeBody,
  DistributeResult,
  TopupCompanyBody,
  TopupCompanyResult,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { auditActorFrom, recordAudit, type AuditActor } from '../../lib/audit';
import { distributeTokens, issueCompanyTokens } from './issue.service';

export const actorUserIdOf = (actor: AuditActor | number | null): number | null =>
  auditActorFrom(actor).userId;

/** An admin's top-up of a company (`company_issued`) and its audit row on the company. */
export async function applyTopUp(
  tx: Tx,
  input: {
    actor: AuditActor | number | null;
    body: TopupCompanyBody;
    at: Date;
    /** The approval this applies, named in the audit row. */
    approvalId?: number;
  },
): Promise<TopupCompanyResult> {
  const { actor, body, at } = input;
  const result = await issueCompanyTokens(tx, {
    companyId: body.company_id,
    amount: body.amount,
    note: body.note,
    actorUserId: actorUserIdOf(actor),
    at,
  });
  await recordAudit(tx, {
    actor,
    action: 'topup',
    entityType: 'company',
    entityId: body.company_id,
    before: { token_balance: result.token_balance - result.amount },
    after: {
      ...result,
      note: body.note ?? null,
      ...(input.approvalId !== undefined ? { approval_id: input.approvalId } : {}),
    },
    at,
  });
  return result;
}

/**
 * A distribution from a company to its employees, all or nothing; one audit row (on the company)
 * records who got how much, written by the ledger's own statement with the ledger rows (decision
 * 0061), so the company's wallet is not held while a separate audit insert travels.
 */
export async function applyDistribution(
  tx: Tx,
  input: {
    actor: AuditActor | number | null;
    companyId: number;
    body: Pick<DistributeBody, 'items' | 'note'>;
    at: Date;
    approvalId?: number;
  },
): Promise<DistributeResult> {
  const { actor, companyId, body, at } = input;
  return distributeTokens(tx, {
    companyId,
    items: body.items,
    note: body.note,
    actorUserId: actorUserIdOf(actor),
    at,
    audit: {
      ip: auditActorFrom(actor).ip,
      ...(input.approvalId !== undefined ? { approvalId: input.approvalId } : {}),
    },
  });
}
