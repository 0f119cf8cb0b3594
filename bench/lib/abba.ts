/**
 * Two variants of one load compared in one run on one database (scenarios 12 and 13): runs in ABBA
 * order (A B B A, again for each round), so that a drift of the shared machine (other work
 * starting or stopping, the tables growing) weighs on both alike, and each variant's runs pooled:
 * its answers over its seconds. The ratio is B's rate over A's. Each run also reports the CPU
 * milliseconds per answer of the API, of the load generator and of the database's backends
 * (/proc): on a shared machine, where the rates follow the scheduler, the figures to compare.
 */
import { CpuSampler } from './cpu';
import { databaseName, vacuumRollupQueue } from './database';
import type { LoadResult } from './load';
import { round } from './stats';

export interface AbbaRun {
  variant: 'a' | 'b';
  load: LoadResult;
  cpuMs: { api: number; load: number; database: number };
}

/** One variant's runs together. */
export interface PooledVariant {
  runs: number;
  seconds: number;
  /** Answers of the expected status (orders placed). */
  ok: number;
  /** Expected refusals (declined orders), by code. */
  declined: Record<string, number>;
  /** Any other answer, by status; transport errors and timeouts apart. */
  otherStatuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** (ok + declined) ÷ seconds: the orders answered a second. */
  answeredPerSecond: number;
  okPerSecond: number;
  /** declined ÷ (ok + declined). */
  declinedShare: number;
  /** The runs' own rates, in the order they ran. */
  answeredPerSecondByRun: number[];
  /** Median of the runs' p50 and p99. */
  latencyMs: { p50: number; p99: number };
  /** CPU ms per answered order, over all its runs. */
  cpuMsPerOrder: { api: number; load: number; database: number };
}

export interface AbbaComparison {
  connections: number;
  rounds: number;
  secondsEach: number;
  a: PooledVariant;
  b: PooledVariant;
  /** b.answeredPerSecond ÷ a.answeredPerSecond. */
  ratio: number;
  /** b.okPerSecond ÷ a.okPerSecond (the orders placed, declines left out). */
  okRatio: number;
  /** a's CPU ms per order (API + database) ÷ b's: above 1, b costs less. */
  cpuRatio: number;
  /** The order the runs went in, e.g. `abbaabba`. */
  order: string;
  runs: AbbaRun[];
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

export function pool(runs: AbbaRun[]): PooledVariant {
  const loads = runs.map((r) => r.load);
  const seconds = sum(loads.map((l) => l.seconds));
  const ok = sum(loads.map((l) => l.ok));
  const declined: Record<string, number> = {};
  const otherStatuses: Record<string, number> = {};
  for (const l of loads) {
    for (const [code, n] of Object.entries(l.declined ?? {}))
      declined[code] = (declined[code] ?? 0) + n;
    for (const [status, n] of Object.entries(l.otherStatuses)) {
      otherStatuses[status] = (otherStatuses[status] ?? 0) + n;
    }
  }
  const declinedCount = sum(Object.values(declined));
  const answered = ok + declinedCount;
  const perOrder = (pick: (r: AbbaRun) => number) =>
    round(sum(runs.map(pick)) / Math.max(1, answered), 3);
  return {
    runs: runs.length,
    seconds: round(seconds, 1),
    ok,
    declined: Object.fromEntries(Object.entries(declined).sort()),
    otherStatuses,
    errors: sum(loads.map((l) => l.errors)),
    timeouts: sum(loads.map((l) => l.timeouts)),
    answeredPerSecond: round(answered / Math.max(seconds, 1e-9), 1),
    okPerSecond: round(ok / Math.max(seconds, 1e-9), 1),
    declinedShare: round(declinedCount / Math.max(1, answered), 4),
    answeredPerSecondByRun: loads.map((l) => l.answeredPerSecond ?? l.okPerSecond),
    latencyMs: {
      p50: median(loads.map((l) => l.latencyMs.p50)),
      p99: median(loads.map((l) => l.latencyMs.p99)),
    },
    cpuMsPerOrder: {
      api: perOrder((r) => r.cpuMs.api),
      load: perOrder((r) => r.cpuMs.load),
      database: perOrder((r) => r.cpuMs.database),
    },
  };
}

/**
 * Runs `a` and `b` at `connections` for `seconds` each, `rounds` times in ABBA order, and pools
 * each variant's runs. Every run starts from a vacuumed rollup queue, as scenario 1's do.
 */
export async function runAbba(options: {
  databaseUrl: string;
  apiPid?: number;
  connections: number;
  seconds: number;
  rounds: number;
  a: (connections: number, seconds: number) => Promise<LoadResult>;
  b: (connections: number, seconds: number) => Promise<LoadResult>;
  /** Called before each run, outside its measures (e.g. the phones computing their codes). */
  before?: (variant: 'a' | 'b') => void | Promise<void>;
  /** Called after each run with its variant and result (a progress line). */
  onRun?: (run: AbbaRun, index: number) => void;
}): Promise<AbbaComparison> {
  const database = databaseName(options.databaseUrl);
  const order = 'abba'.repeat(options.rounds);
  const runs: AbbaRun[] = [];
  for (const variant of order as Iterable<'a' | 'b'>) {
    await options.before?.(variant);
    await vacuumRollupQueue(options.databaseUrl);
    const sampler = new CpuSampler(database, {
      load: process.pid,
      ...(options.apiPid ? { api: options.apiPid } : {}),
    });
    const load = await options[variant](options.connections, options.seconds);
    const ms = sampler.stop();
    const run: AbbaRun = {
      variant,
      load,
      cpuMs: { api: ms.api ?? 0, load: ms.load ?? 0, database: ms.database ?? 0 },
    };
    runs.push(run);
    options.onRun?.(run, runs.length);
  }
  const a = pool(runs.filter((r) => r.variant === 'a'));
  const b = pool(runs.filter((r) => r.variant === 'b'));
  const cpuOf = (v: PooledVariant) => v.cpuMsPerOrder.api + v.cpuMsPerOrder.database;
  return {
    connections: options.connections,
    rounds: options.rounds,
    secondsEach: options.seconds,
    a,
    b,
    ratio: round(b.answeredPerSecond / Math.max(a.answeredPerSecond, 1e-9), 3),
    okRatio: round(b.okPerSecond / Math.max(a.okPerSecond, 1e-9), 3),
    cpuRatio: cpuOf(b) > 0 ? round(cpuOf(a) / cpuOf(b), 3) : 0,
    order,
    runs,
  };
}
