import type { AutoArchiveJobResult, MonthlyResetRun } from '@app/contract';
import { isAppError } from '../../lib/app-error';
import type { ServiceDeps } from '../../lib/deps';
import { nextPeriod } from '../../lib/periods';
import { deleteExpiredRateLimits } from '../../lib/rate-limits';
import { countedJob } from '../../lib/metrics';
import { inTransaction } from '../../lib/transaction';
import { lookupCompany } from '../companies';
import { findCompaniesDueForReset, findOpenOrdersBefore } from '../ledger';
import { sweepSignInThrottles } from '../iam';
import { expireApprovals } from '../approvals';
import { announceClosedSettlements } from '../settlements';
import { refundOrder, resetCompany, type ResetHooks } from '../ledger';

/** A server down for longer than this many months catches up over several runs. */
const MAX_RESETS_PER_COMPANY_PER_RUN = 24;
const COMPANIES_PER_BATCH = 200;
const ORDERS_PER_ARCHIVE_RUN = 500;

/**
 * Applies every reset due now, company by company, each in its own transaction, so a company whose
 * reset fails (reported as `failed`, nothing of it applied) does not hold the others back. Safe to
 * run on every instance at once and to repeat: resetCompany serialises on an advisory lock per
 * company and does nothing when nothing is due.
 */
export async function runMonthlyResets(
  deps: ServiceDeps,
  options: { hooks?: ResetHooks; onFailure?: (companyId: number, error: unknown) => void } = {},
): Promise<MonthlyResetRun[]> {
  const runs = await countedJob(deps.metrics, 'monthly_reset', () =>
    monthlyResetsNow(deps, options),
  );
  for (const run of runs) deps.metrics?.monthlyResets.inc({ status: run.status });
  return runs;
}

async function monthlyResetsNow(
  { database, clock, config }: ServiceDeps,
  options: { hooks?: ResetHooks; onFailure?: (companyId: number, error: unknown) => void },
): Promise<MonthlyResetRun[]> {
  const runs: MonthlyResetRun[] = [];
  const seen = new Set<number>();
  for (;;) {
    const due = await findCompaniesDueForReset(database.db, clock.now(), COMPANIES_PER_BATCH, [
      ...seen,
    ]);
    if (due.length === 0) break;
    for (const companyId of due) {
      seen.add(companyId);
      try {
        for (let i = 0; i < MAX_RESETS_PER_COMPANY_PER_RUN; i += 1) {
          const outcome = await inTransaction(database, (tx) =>
            resetCompany(tx, {
              companyId,
              at: clock.now(),
              timeZone: config.APP_TIMEZONE,
              hooks: options.hooks,
            }),
          );
          if (!outcome) break;
          runs.push({ company_id: companyId, period: outcome.period, status: outcome.status });
          if (outcome.status === 'already_applied') break;
        }
      } catch (error) {
        options.onFailure?.(companyId, error);
        const company = await lookupCompany(database.db, { kind: 'all' }, companyId);
        runs.push({
          company_id: companyId,
          period: company ? nextPeriod(company.tokenMonth) : '',
          status: 'failed',
        });
      }
    }
  }
  return runs;
}

/**
 * Refunds (reason auto_archived) every order still open after `olderThanHours`, each in its own
 * transaction. 0 hours means the job is off. An order refunded meanwhile is simply skipped.
 */
export function runAutoArchive(
  deps: ServiceDeps,
  olderThanHours: number,
): Promise<AutoArchiveJobResult> {
  return countedJob(deps.metrics, 'auto_archive', () => autoArchiveNow(deps, olderThanHours));
}

async function autoArchiveNow(
  { database, clock, metrics }: ServiceDeps,
  olderThanHours: number,
): Promise<AutoArchiveJobResult> {
  const archived: number[] = [];
  if (olderThanHours <= 0) return { archived_order_ids: archived, older_than_hours: 0 };
  const before = new Date(clock.now().getTime() - olderThanHours * 3_600_000);
  const open = await findOpenOrdersBefore(database.db, before, ORDERS_PER_ARCHIVE_RUN);
  for (const order of open) {
    try {
      await inTransaction(database, (tx) =>
        refundOrder(tx, {
          orderId: order.id,
          merchantId: null,
          terminalId: order.terminalId,
          reason: 'auto_archived',
          at: clock.now(),
        }),
      );
      archived.push(order.id);
      metrics?.refunds.inc({ reason: 'auto_archived' });
    } catch (error) {
      if (isAppError(error) && error.code === 'ORDER_ALREADY_REFUNDED') continue;
      throw error;
    }
  }
  return { archived_order_ids: archived, older_than_hours: olderThanHours };
}

/**
 * Deletes the rate-limit and sign-in counters that have expired (decision 0014). Reads already
 * ignore them; this only keeps the tables small. Cheap: both are index range deletes.
 */
export function sweepExpiredCounters({
  database,
  clock,
  metrics,
}: Pick<ServiceDeps, 'database' | 'clock' | 'metrics'>): Promise<{
  rate_limits: number;
  sign_in: number;
}> {
  return countedJob(metrics, 'sweep_counters', async () => {
    const now = clock.now();
    return {
      rate_limits: await deleteExpiredRateLimits(database.db, now),
      sign_in: await sweepSignInThrottles(database.db, now),
    };
  });
}

/**
 * Marks expired every pending approval older than 7 days (decision 0039), each audited with no
 * actor; by the injectable clock, so tests move time instead of waiting.
 */
export function runApprovalExpiry(deps: ServiceDeps): Promise<number[]> {
  return countedJob(deps.metrics, 'approval_expiry', () => expireApprovals(deps));
}

/**
 * Announces the settlement periods that have ended (decision 0084): one `settlement.closed` event
 * per merchant and period, written once whatever the number of instances running it.
 */
export function runSettlementClosings(deps: ServiceDeps): Promise<string[]> {
  return countedJob(deps.metrics, 'settlement_closing', () => announceClosedSettlements(deps));
}
