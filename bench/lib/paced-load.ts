import http from 'node:http';

/** One request of a paced load: what to send, and what to do with its answer. */
export interface PacedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Called with the status, the body and the latency from the request's arrival time. */
  onAnswer: (status: number, body: string, latencyMs: number) => void;
}

export interface PacedLoadResult {
  /** Requests that arrived (and were sent). */
  arrived: number;
  /** Requests that never got an answer: a transport error or no answer within the timeout. */
  errors: number;
  timeouts: number;
  durationSeconds: number;
}

/**
 * An open load (k6's arrival-rate model, wrk2's constant throughput): requests arrive at
 * `ratePerSecond` on average, as a Poisson process (independent users, exponential gaps between
 * arrivals), whatever the answers take. Each is sent on a keep-alive connection of at most
 * `maxConnections`; a request arriving while every connection is busy waits for one, and that
 * wait counts in its latency, which runs from its arrival, not from when it could be sent (no
 * coordinated omission).
 *
 * autocannon's `overallRate` is not this: each of its connections sends its share of a second's
 * requests back to back from the start of every second, then stays silent until the next, so
 * "150 a second" arrived as one burst of every connection at once (bench/RESULTS.md, stop 38).
 */
export async function runPacedLoad(options: {
  url: string;
  ratePerSecond: number;
  seconds: number;
  maxConnections: number;
  timeoutMs: number;
  /** The next request to send, built at its arrival (ms after the load's start, as scheduled). */
  next: (arrivalMs: number) => PacedRequest;
  random?: () => number;
  /** Ends the arrivals when it settles, if before `seconds` (the answers due are awaited). */
  until?: Promise<unknown>;
}): Promise<PacedLoadResult> {
  const base = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxConnections });
  const random = options.random ?? Math.random;
  const meanGapMs = 1000 / options.ratePerSecond;
  const started = performance.now();
  const end = started + options.seconds * 1000;
  const inFlight = new Set<Promise<void>>();
  let arrived = 0;
  let errors = 0;
  let timeouts = 0;

  const send = (request: PacedRequest, arrivedAt: number) =>
    new Promise<void>((resolve) => {
      let timedOut = false;
      const headers: Record<string, string | number> = { ...request.headers };
      if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
      const req = http.request(
        {
          agent,
          host: base.hostname,
          port: base.port,
          method: request.method,
          path: request.path,
          headers,
          timeout: options.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            request.onAnswer(
              res.statusCode ?? 0,
              Buffer.concat(chunks).toString('utf8'),
              performance.now() - arrivedAt,
            );
            resolve();
          });
          res.on('error', () => {
            errors += 1;
            resolve();
          });
        },
      );
      req.on('timeout', () => {
        timedOut = true;
        timeouts += 1;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        if (!timedOut) errors += 1;
        resolve();
      });
      req.end(request.body);
    });

  let stopped = false;
  void options.until?.finally(() => {
    stopped = true;
  });
  let nextAt = started;
  for (;;) {
    const now = performance.now();
    if (nextAt >= end || stopped) break;
    if (nextAt > now) {
      await new Promise((r) => setTimeout(r, nextAt - now));
      continue;
    }
    // Every arrival already due leaves now, each with its own arrival time.
    const arrivedAt = nextAt;
    nextAt += -Math.log(1 - random()) * meanGapMs;
    arrived += 1;
    const sent = send(options.next(arrivedAt - started), arrivedAt);
    inFlight.add(sent);
    void sent.then(() => inFlight.delete(sent));
  }
  await Promise.all(inFlight);
  agent.destroy();
  return {
    arrived,
    errors,
    timeouts,
    durationSeconds: (performance.now() - started) / 1000,
  };
}
