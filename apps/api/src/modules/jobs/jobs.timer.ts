import type { FastifyInstance } from 'fastify';
import { advanceSystemPeriods } from '../system';
import {
  runApprovalExpiry,
  runAutoArchive,
  runMonthlyResets,
  runSettlementClosings,
  sweepExpiredCounters,
} from './jobs.service';

/**
 * Runs the scheduled jobs every JOBS_INTERVAL_SECONDS in this instance (0: never): monthly resets,
 * the system period's reset (decision 0006: reads advance it too, the timer opens it on time when
 * nobody reads), auto-archive, the expiry of approvals pending for 7 days, the announcement of
 * closed settlement periods (decision 0084), and the sweep of expired rate-limit and sign-in
 * counters. Every instance
 * runs them; the jobs themselves make that harmless (DESIGN 3.6). A run still going when the next
 * tick comes is not doubled. Started by server.ts, never by buildApp, so tests drive jobs by hand.
 */
export function startJobTimer(app: FastifyInstance): () => Promise<void> {
  const seconds = app.deps.config.JOBS_INTERVAL_SECONDS;
  if (seconds <= 0) return async () => undefined;
  let current: Promise<void> | null = null;
  const tick = () => {
    current ??= run().finally(() => {
      current = null;
    });
  };
  const run = async () => {
    try {
      const runs = await runMonthlyResets(app.deps, {
        onFailure: (companyId, error) =>
          app.log.error({ err: error, companyId }, 'monthly reset failed; retried next run'),
      });
      if (runs.length > 0) app.log.info({ runs }, 'monthly resets run');
      const periods = await advanceSystemPeriods(app.deps);
      if (periods.length > 0) app.log.info({ periods }, 'system periods opened');
      const archived = await runAutoArchive(app.deps, app.deps.config.AUTO_ARCHIVE_AFTER_HOURS);
      if (archived.archived_order_ids.length > 0) {
        app.log.info({ orders: archived.archived_order_ids }, 'orders auto-archived');
      }
      const expired = await runApprovalExpiry(app.deps);
      if (expired.length > 0) app.log.info({ approvals: expired }, 'approvals expired');
      const closed = await runSettlementClosings(app.deps);
      if (closed.length > 0) app.log.info({ periods: closed }, 'settlement periods announced');
      await sweepExpiredCounters(app.deps);
    } catch (error) {
      app.log.error({ err: error }, 'scheduled job failed');
    }
  };
  const timer = setInterval(tick, seconds * 1000);
  timer.unref();
  tick();
  /** Stops the timer and waits for a run in progress, so the database can close after it. */
  return async () => {
    clearInterval(timer);
    await current;
  };
}
