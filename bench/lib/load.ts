import autocannon from 'autocannon';
import { percentile, round } from './stats';

export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  /** Answers with the expected status. */
  ok: number;
  /** Answers with any other status, by status. */
  otherStatuses: Record<string, number>;
  errors: number;
  timeouts: number;
  okPerSecond: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
}

/**
 * Drives the API with autocannon (127.0.0.1 only, bounded by `seconds` or `amount`), counting the
 * answers by status and taking latency percentiles over every response.
 */
export async function runLoad(options: {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  seconds?: number;
  amount?: number;
  headers?: Record<string, string>;
  expectedStatus: number;
  /** Varies each request (body, headers); called by autocannon before every request. */
  setupRequest?: (request: autocannon.Request) => autocannon.Request;
  /** Requests a second in all (autocannon's `overallRate`); as fast as answered without it. */
  rate?: number;
  /** Stops the load when this settles (instead of after `seconds` or `amount`). */
  until?: Promise<unknown>;
}): Promise<LoadResult> {
  if (!new URL(options.url).hostname.startsWith('127.')) {
    throw new Error(`Load is only sent to 127.0.0.1, not ${options.url}`);
  }
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method,
        connections: options.connections,
        ...(options.amount !== undefined
          ? { amount: options.amount }
          : { duration: options.until ? 3600 : (options.seconds ?? 10) }),
        ...(options.rate ? { overallRate: options.rate } : {}),
        headers: options.headers,
        timeout: 30,
        requests: options.setupRequest ? [{ setupRequest: options.setupRequest }] : undefined,
      },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
    void options.until?.finally(() => instance.stop());
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    });
  });
  return loadResultOf({
    connections: options.connections,
    seconds: result.duration,
    expectedStatus: options.expectedStatus,
    latencies,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
  });
}

/** A load's answers (every latency, the count of each status) as a `LoadResult`. */
export function loadResultOf(run: {
  connections: number;
  seconds: number;
  expectedStatus: number;
  latencies: number[];
  statuses: Map<number, number>;
  errors: number;
  timeouts: number;
}): LoadResult {
  const ok = run.statuses.get(run.expectedStatus) ?? 0;
  const otherStatuses = Object.fromEntries(
    [...run.statuses]
      .filter(([status]) => status !== run.expectedStatus)
      .map(([s, n]) => [String(s), n]),
  );
  return {
    connections: run.connections,
    seconds: run.seconds,
    requests: run.latencies.length,
    ok,
    otherStatuses,
    errors: run.errors,
    timeouts: run.timeouts,
    okPerSecond: round(ok / run.seconds, 1),
    latencyMs: latencySummary(run.latencies),
  };
}

/** p50, p95, p99 and max of `latencies` (ms, one decimal). */
export function latencySummary(latencies: number[]): {
  p50: number;
  p95: number;
  p99: number;
  max: number;
} {
  return {
    p50: round(percentile(latencies, 50), 1),
    p95: round(percentile(latencies, 95), 1),
    p99: round(percentile(latencies, 99), 1),
    max: round(
      latencies.reduce((a, b) => Math.max(a, b), 0),
      1,
    ),
  };
}
