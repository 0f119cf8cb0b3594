import autocannon from 'autocannon';
import { percentile, round } from './stats';

export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  /** Answers with the expected status. */
  ok: number;
  /**
   * Answers with any other status, by status (`"409 CODE"` for a refusal the load was told to
   * expect a code of, but of another code).
   */
  otherStatuses: Record<string, number>;
  /** The refusals the load expects (`expectedRefusals`, e.g. a spending rule's 409), by code. */
  declined?: Record<string, number>;
  /** Answers with the expected status or an expected refusal, a second. */
  answeredPerSecond?: number;
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
  /**
   * Refusals that are an outcome of the load, not a failure (a declined order): answers of this
   * status with one of these catalogue codes are counted by code in `declined`, any other answer
   * of the status by `"status code"` in `otherStatuses`. Every answer's body is then read (in
   * every run given it, even with no code, so that runs compared pay the same).
   */
  expectedRefusals?: { status: number; codes: readonly string[] };
}): Promise<LoadResult> {
  if (!new URL(options.url).hostname.startsWith('127.')) {
    throw new Error(`Load is only sent to 127.0.0.1, not ${options.url}`);
  }
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const refusals = options.expectedRefusals;
  const declined = new Map<string, number>();
  const unexpected = new Map<string, number>();
  const onResponse = refusals
    ? (status: number, body: string) => {
        if (status !== refusals.status) return;
        const code = refusalCode(body);
        const into = code !== undefined && refusals.codes.includes(code) ? declined : unexpected;
        const key = into === declined ? code! : `${status} ${code ?? '?'}`;
        into.set(key, (into.get(key) ?? 0) + 1);
      }
    : undefined;
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
        requests:
          options.setupRequest || onResponse
            ? [
                {
                  ...(options.setupRequest ? { setupRequest: options.setupRequest } : {}),
                  ...(onResponse ? { onResponse } : {}),
                },
              ]
            : undefined,
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
    ...(refusals ? { refusals: { status: refusals.status, declined, unexpected } } : {}),
  });
}

/** The catalogue code of an error envelope (`{ code }`), if the body is one. */
function refusalCode(body: string): string | undefined {
  try {
    const code = (JSON.parse(body) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
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
  /** The answers of the expected refusals' status, split: expected codes and the others. */
  refusals?: { status: number; declined: Map<string, number>; unexpected: Map<string, number> };
}): LoadResult {
  const ok = run.statuses.get(run.expectedStatus) ?? 0;
  const refusals = run.refusals;
  const otherStatuses = Object.fromEntries(
    [...run.statuses]
      .filter(([status]) => status !== run.expectedStatus && status !== refusals?.status)
      .map(([s, n]) => [String(s), n]),
  );
  let declined = 0;
  if (refusals) {
    for (const [key, n] of refusals.unexpected) otherStatuses[key] = n;
    declined = [...refusals.declined.values()].reduce((a, b) => a + b, 0);
    // An answer of that status whose body never reached onResponse (none expected) still shows.
    const seen = declined + [...refusals.unexpected.values()].reduce((a, b) => a + b, 0);
    const missing = (run.statuses.get(refusals.status) ?? 0) - seen;
    if (missing > 0) otherStatuses[String(refusals.status)] = missing;
  }
  return {
    connections: run.connections,
    seconds: run.seconds,
    requests: run.latencies.length,
    ok,
    otherStatuses,
    errors: run.errors,
    timeouts: run.timeouts,
    okPerSecond: round(ok / run.seconds, 1),
    ...(refusals
      ? {
          declined: Object.fromEntries([...refusals.declined].sort()),
          answeredPerSecond: round((ok + declined) / run.seconds, 1),
        }
      : {}),
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
