import { withClient } from './database';
import { latencySummary } from './load';
import { round } from './stats';

/** One window of a load: its answers (by arrival) and what the API and the database showed. */
export interface TimelineWindow {
  /** Seconds from the run's start to the window's start. */
  second: number;
  served: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** The API's event-loop delay over the window (prom-client's histogram, reset each scrape). */
  loopDelayMaxMs: number | null;
  /** Queries waiting for a pool connection when the window ended. */
  poolWaiting: number | null;
  /** The API's GC time in the window. */
  gcMs: number | null;
  /** Database backends waiting for a lock when the window ended. */
  lockWaits: number | null;
  /** Checkpoints the database began in the window. */
  checkpoints: number | null;
}

/** The sum of a Prometheus text's samples of metric `name` (over its labels); null if none. */
export function metricValue(text: string, name: string): number | null {
  const values = [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))]
    .map((match) => Number(match[1]))
    .filter((value) => Number.isFinite(value));
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0);
}

/**
 * Latency by window of arrival, with the API's event loop, pool and GC (its /metrics) and the
 * database's lock waits and checkpoints read at each window's end: a tail that every kind shares
 * is then seen as a stall of one of them, or as a queue spread over the run.
 */
export function createTimeline(options: {
  apiUrl: string;
  databaseUrl: string;
  windowSeconds: number;
  /** Milliseconds on a monotonic clock (performance.now; a test drives its own). */
  now?: () => number;
}) {
  const now = options.now ?? (() => performance.now());
  let started = 0;
  let timer: NodeJS.Timeout | undefined;
  const latencies = new Map<number, number[]>();
  const readings = new Map<number, Partial<TimelineWindow>>();
  let lastGcSeconds: number | null = null;
  let lastCheckpoints: number | null = null;

  const read = async () => {
    const index = Math.floor((now() - started) / 1000 / options.windowSeconds) - 1;
    const reading: Partial<TimelineWindow> = {};
    try {
      const text = await (await fetch(`${options.apiUrl}/metrics`)).text();
      const loop = metricValue(text, 'nodejs_eventloop_lag_max_seconds');
      reading.loopDelayMaxMs = loop === null ? null : round(loop * 1000, 1);
      reading.poolWaiting = metricValue(text, 'db_pool_waiting_requests');
      const gc = metricValue(text, 'nodejs_gc_duration_seconds_sum');
      reading.gcMs =
        gc === null || lastGcSeconds === null ? null : round((gc - lastGcSeconds) * 1000, 1);
      lastGcSeconds = gc;
    } catch {
      // A missed scrape leaves the window's API columns empty.
    }
    try {
      await withClient(options.databaseUrl, async (client) => {
        const { rows } = await client.query<{ lock_waits: number; checkpoints: number }>(
          `SELECT (SELECT count(*)::int FROM pg_stat_activity WHERE wait_event_type = 'Lock') AS lock_waits,
                  (SELECT (checkpoints_timed + checkpoints_req)::int FROM pg_stat_bgwriter) AS checkpoints`,
        );
        reading.lockWaits = rows[0]!.lock_waits;
        reading.checkpoints =
          lastCheckpoints === null ? null : rows[0]!.checkpoints - lastCheckpoints;
        lastCheckpoints = rows[0]!.checkpoints;
      });
    } catch {
      // As above, for the database's columns.
    }
    if (index >= 0) readings.set(index, reading);
  };

  return {
    /**
     * Starts the windows and the readings (one now, then one at each window's end); answers
     * before it are not recorded. Settles when the first reading is taken.
     */
    start(): Promise<void> {
      started = now();
      timer = setInterval(() => void read(), options.windowSeconds * 1000);
      return read();
    },
    /** Takes the reading of the window that ended last (what the interval does). */
    read,
    /** An answer whose request arrived `latencyMs` ago. */
    record(latencyMs: number) {
      if (timer === undefined) return;
      // A request sent just before the timeline started counts in its first window.
      const index = Math.max(
        0,
        Math.floor((now() - latencyMs - started) / 1000 / options.windowSeconds),
      );
      (latencies.get(index) ?? latencies.set(index, []).get(index)!).push(latencyMs);
    },
    /** Stops reading; the windows in order. */
    stop(): TimelineWindow[] {
      clearInterval(timer);
      return [...latencies.keys()]
        .sort((a, b) => a - b)
        .map((index) => {
          const values = latencies.get(index)!;
          const reading = readings.get(index) ?? {};
          return {
            second: index * options.windowSeconds,
            served: values.length,
            ...latencySummary(values),
            loopDelayMaxMs: reading.loopDelayMaxMs ?? null,
            poolWaiting: reading.poolWaiting ?? null,
            gcMs: reading.gcMs ?? null,
            lockWaits: reading.lockWaits ?? null,
            checkpoints: reading.checkpoints ?? null,
          };
        });
    },
  };
}
