import type {
  Approval,
  DistributeBody,
  DistributeResult,
  TokenConfiguration,
  TopupCompanyBody,
  TopupCompanyResult,
  UpdateTokenConfigurationBody,
} from '@app/contract';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import { iso } from '../../lib/numbers';
import { nextResetAfterChange } from '../../lib/periods';
import type { TenantScope } from '../../lib/scope';
import { inTransaction, transactionOf, type TransactionRunner } from '../../lib/transaction';
import type { AuthUser } from '../../lib/principal';
import { lookupCompany, updateCompany } from '../companies';
import type { CompanyRow } from '../../db/schema';
import { lockCompany } from '../ledger';
import { requestApprovalIfDue } from '../approvals';
import { applyDistribution, applyTopUp } from '../ledger';

/** The company a token request acts on: the caller's own, or the one admin and HR name. */
function targetCompany(
  scope: TenantScope,
  companyId: number | undefined,
  missing: 'BODY_INVALID' | 'QUERY_PARAM_INVALID' = 'BODY_INVALID',
) {
  if (scope.kind === 'company' || scope.kind === 'self') {
    if (companyId !== undefined && companyId !== scope.companyId) {
      throw new AppError('RECORD_NOT_FOUND');
    }
    return scope.companyId;
  }
  if (scope.kind === 'all') {
    if (companyId === undefined) {
      throw new AppError(missing, { metadata: { company_id: 'v.company_required' } });
    }
    return companyId;
  }
  throw new AppError('RECORD_NOT_FOUND');
}

/** POST /tokens/topup-token: an admin issues tokens to a company; audit-logged with the ledger row. */
export async function issueToCompany(
  { database, clock }: ServiceDeps,
  actor: AuditActor | number | null,
  body: TopupCompanyBody,
): Promise<TopupCompanyResult> {
  const at = clock.now();
  return inTransaction(database, (tx) => applyTopUp(tx, { actor, body, at }));
}

/**
 * POST /tokens/topup-token/employees: a company admin distributes, all or nothing; one audit row
 * (on the company) records who got how much, in the transaction of the ledger rows.
 */
export async function distributeToEmployees(
  { database, clock }: ServiceDeps,
  scope: TenantScope,
  actor: AuditActor | number | null,
  body: DistributeBody,
): Promise<DistributeResult> {
  const companyId = targetCompany(scope, body.company_id);
  const at = clock.now();
  return inTransaction(database, (tx) => applyDistribution(tx, { actor, companyId, body, at }));
}

/** A request's outcome under the approval policy: applied now, or waiting for a second person. */
export type Outcome<T> = { applied: T } | { approval: Approval };

/**
 * The route's top-up: at or above the policy's threshold it becomes a pending approval (no token
 * moves); below it, or with the rule off, it is applied at once. One transaction either way.
 */
export async function topUpOrRequestApproval(
  { database, clock, config }: ServiceDeps,
  user: AuthUser,
  actor: AuditActor,
  body: TopupCompanyBody,
  /** A caller's transaction (the route's Idempotency-Key, decision 0068), else one of its own. */
  transaction: TransactionRunner = transactionOf(database),
): Promise<Outcome<TopupCompanyResult>> {
  const at = clock.now();
  return transaction(async (tx) => {
    const approval = await requestApprovalIfDue(tx, {
      kind: 'top_up',
      requester: user,
      actor,
      companyId: body.company_id,
      total: body.amount,
      note: body.note,
      amount: body.amount,
      at,
      stepUp: config,
    });
    if (approval) return { approval };
    return { applied: await applyTopUp(tx, { actor, body, at }) };
  });
}

/** The route's distribution, under the approval policy as `topUpOrRequestApproval`. */
export async function distributeOrRequestApproval(
  { database, clock, config }: ServiceDeps,
  user: AuthUser,
  scope: TenantScope,
  actor: AuditActor,
  body: DistributeBody,
  transaction: TransactionRunner = transactionOf(database),
): Promise<Outcome<DistributeResult>> {
  const companyId = targetCompany(scope, body.company_id);
  const at = clock.now();
  const total = body.items.reduce((sum, item) => sum + item.amount, 0);
  return transaction(async (tx) => {
    const approval = await requestApprovalIfDue(tx, {
      kind: 'distribution',
      requester: user,
      actor,
      companyId,
      total,
      note: body.note,
      items: body.items,
      at,
      stepUp: config,
    });
    if (approval) return { approval };
    return { applied: await applyDistribution(tx, { actor, companyId, body, at }) };
  });
}

const toConfiguration = (row: CompanyRow): TokenConfiguration => ({
  company_id: row.id,
  monthly_reset_day: row.monthlyResetDay,
  init_token: row.initToken,
  init_token_next_month: row.initTokenNextMonth,
  employee_monthly_tokens: row.employeeMonthlyTokens,
  token_month: row.tokenMonth,
  next_reset_at: iso(row.nextResetAt),
});

export async function getTokenConfiguration(
  { database }: ServiceDeps,
  scope: TenantScope,
  companyId: number | undefined,
): Promise<TokenConfiguration> {
  const id = targetCompany(scope, companyId, 'QUERY_PARAM_INVALID');
  const row = await lookupCompany(database.db, scope, id);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return toConfiguration(row);
}

/** What decides how many tokens a company receives: only admin and Group HR change it. */
const COMPANY_FUNDING_FIELDS = [
  'monthly_reset_day',
  'init_token',
  'init_token_next_month',
] as const;

/**
 * PUT /tokens/configuration. A new reset day takes effect from the first month after the current
 * token month whose reset is still ahead: changing it never expires balances on the spot.
 */
export async function updateTokenConfiguration(
  { database, clock, config }: ServiceDeps,
  user: Pick<AuthUser, 'type'>,
  scope: TenantScope,
  body: UpdateTokenConfigurationBody,
  actor: AuditActor | null = null,
): Promise<TokenConfiguration> {
  const id = targetCompany(scope, body.company_id);
  if (user.type === 'company_admin' && COMPANY_FUNDING_FIELDS.some((f) => body[f] !== undefined)) {
    throw new AppError('PERMISSION_DENIED');
  }
  const at = clock.now();
  return inTransaction(database, async (tx) => {
    if (!(await lookupCompany(tx, scope, id))) throw new AppError('RECORD_NOT_FOUND');
    // Locked like a reset locks it, so a running reset and this change take turns.
    const company = (await lockCompany(tx, id))!;
    const resetDay = body.monthly_reset_day ?? company.monthlyResetDay;
    const row = await updateCompany(tx, scope, id, {
      ...(body.monthly_reset_day !== undefined && body.monthly_reset_day !== company.monthlyResetDay
        ? {
            monthlyResetDay: resetDay,
            nextResetAt: nextResetAfterChange(company.tokenMonth, resetDay, config.APP_TIMEZONE, at)
              .at,
          }
        : {}),
      ...(body.init_token !== undefined ? { initToken: body.init_token } : {}),
      ...(body.init_token_next_month !== undefined
        ? { initTokenNextMonth: body.init_token_next_month }
        : {}),
      ...(body.employee_monthly_tokens !== undefined
        ? { employeeMonthlyTokens: body.employee_monthly_tokens }
        : {}),
      updatedAt: at,
    });
    const after = toConfiguration(row!);
    await recordAudit(tx, {
      actor,
      action: 'update_configuration',
      entityType: 'company',
      entityId: id,
      before: toConfiguration(company),
      after,
      at,
    });
    return after;
  });
}
