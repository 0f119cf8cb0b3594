// Prometheus metrics (DESIGN 4.2, decision 0019): one registry per app, so that the many apps a
// test process builds never collide, and the process's own metrics (CPU, memory, event loop, GC),
// which describe the process rather than an app, collected once per process into a registry of
// their own, started on the first scrape only.
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
} from 'prom-client';
import type { PoolStats } from '../db/client';

/** The label of a request the router matched to no route (never its raw URL). */
export const UNMATCHED_ROUTE = 'unmatched';

export interface Metrics {
  registry: Registry;
  /** Request duration in seconds by method, route pattern and status code. */
  httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** Terminal orders placed (a replayed answer to a retried key is not counted again). */
  ordersPlaced: Counter;
  /** Orders per group-commit batch (decision 0034): 1 under a light load. */
  orderBatchSize: Histogram;
  /** Refunds made, by reason (terminal refunds and the auto-archive job's). */
  refunds: Counter<'reason'>;
  /** Monthly resets per company and period, by outcome: applied, already_applied, failed. */
  monthlyResets: Counter<'status'>;
  /** Scheduled job runs, by job and outcome (ok, failed). */
  jobRuns: Counter<'job' | 'outcome'>;
  /** Webhook delivery attempts, by outcome: succeeded, failed (decision 0038). */
  webhookDeliveries: Counter<'outcome'>;
  /** The Prometheus text of this app's metrics and the process's. */
  render(): Promise<string>;
  contentType: string;
}

let processRegistry: Registry | undefined;

/**
 * The process metrics (prom-client's defaults), started once per process, when the first app's
 * metrics are made: prom-client counts the process's CPU from then on, so a registry started at
 * the first scrape answered about 0 s of CPU (0 on a kernel that accounts CPU by ticks).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * A fresh registry holding this app's metrics; `poolStats` feeds the database pool gauges, and
 * `readPoolStats` those of the read pool (DATABASE_READ_URL, decision 0023) when there is one.
 */
export function createMetrics(
  poolStats: () => PoolStats | null = () => null,
  readPoolStats: () => PoolStats | null = () => null,
): Metrics {
  processMetrics();
  const registry = new Registry();
  const counter = <L extends string>(config: CounterConfiguration<L>) =>
    new Counter<L>({ ...config, registers: [registry] });

  const httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  const poolGauge = (
    name: string,
    help: string,
    pick: (stats: PoolStats) => number,
    source = poolStats,
  ) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = source();
        if (stats) this.set(pick(stats));
      },
    });
  // Only where there is a pool (PostgreSQL): PGlite's one connection has nothing to show.
  if (poolStats() !== null) {
    poolGauge('db_pool_connections', 'PostgreSQL pool connections open', (s) => s.total);
    poolGauge('db_pool_idle_connections', 'PostgreSQL pool connections idle', (s) => s.idle);
    poolGauge(
      'db_pool_waiting_requests',
      'Queries waiting for a pool connection',
      (s) => s.waiting,
    );
    poolGauge('db_pool_max_connections', 'PostgreSQL pool size (DATABASE_POOL_SIZE)', (s) => s.max);
  }
  if (readPoolStats() !== null) {
    const read = readPoolStats;
    poolGauge('db_read_pool_connections', 'Read pool connections open', (s) => s.total, read);
    poolGauge('db_read_pool_idle_connections', 'Read pool connections idle', (s) => s.idle, read);
    poolGauge(
      'db_read_pool_waiting_requests',
      'Queries waiting for a read pool connection',
      (s) => s.waiting,
      read,
    );
    poolGauge('db_read_pool_max_connections', 'Read pool size', (s) => s.max, read);
  }

  const metrics: Metrics = {
    registry,
    httpRequestDuration,
    ordersPlaced: counter({
      name: 'ledger_orders_placed_total',
      help: 'Terminal orders placed',
    }),
    orderBatchSize: new Histogram({
      name: 'ledger_order_batch_size',
      help: 'Terminal orders sent to the database together (group commit)',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128],
      registers: [registry],
    }),
    refunds: counter({
      name: 'ledger_refunds_total',
      help: 'Order refunds made, by reason',
      labelNames: ['reason'] as const,
    }),
    monthlyResets: counter({
      name: 'ledger_monthly_resets_total',
      help: 'Monthly resets run per company and period, by status (applied, already_applied, failed)',
      labelNames: ['status'] as const,
    }),
    jobRuns: counter({
      name: 'jobs_runs_total',
      help: 'Scheduled job runs, by job and outcome (ok, failed)',
      labelNames: ['job', 'outcome'] as const,
    }),
    webhookDeliveries: counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts, by outcome (succeeded, failed)',
      labelNames: ['outcome'] as const,
    }),
    contentType: registry.contentType,
    render: async () => {
      const own = await registry.metrics();
      const process = await processMetrics().metrics();
      return `${process.trimEnd()}\n\n${own}`;
    },
  };
  return metrics;
}

/** Runs `job`, counting its run as ok or failed (the error is rethrown). */
export async function countedJob<T>(
  metrics: Metrics | undefined,
  job: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    const result = await run();
    metrics?.jobRuns.inc({ job, outcome: 'ok' });
    return result;
  } catch (error) {
    metrics?.jobRuns.inc({ job, outcome: 'failed' });
    throw error;
  }
}
