// The soak's open load (bench/lib/paced-load.ts): requests arrive spread over time, not as one
// burst a second, and a request that waits for a connection has the wait in its latency.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runPacedLoad } from '../../../bench/lib/paced-load';

let server: http.Server | undefined;

async function listen(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('the paced load', () => {
  it('spreads its arrivals over each second, and answers each request with its own body', async () => {
    // When each request reached the server, by its number, from before the load started.
    const received = new Map<number, number>();
    const before = performance.now();
    const url = await listen((req, res) => {
      received.set(Number(req.url!.split('/').at(-1)), performance.now() - before);
      res.end(req.url);
    });
    // A seeded source, so the schedule is the same on every run; the quarters below count the
    // arrivals as scheduled, not as a busy machine's event loop happened to deliver them.
    let seed = 47;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const arrivals: number[] = [];
    const answers: string[] = [];
    let n = 0;
    const result = await runPacedLoad({
      url,
      ratePerSecond: 200,
      seconds: 2,
      maxConnections: 32,
      timeoutMs: 5_000,
      random,
      next: (arrivalMs) => {
        arrivals.push(arrivalMs);
        const path = `/r/${(n += 1)}`;
        return {
          method: 'GET',
          path,
          headers: {},
          onAnswer: (status, body) => {
            expect(status).toBe(200);
            answers.push(body === path ? 'same' : `${path} answered ${body}`);
          },
        };
      },
    });
    // About 400 arrivals (a Poisson count: 400 ± 20 for one standard deviation).
    expect(result.arrived).toBeGreaterThan(300);
    expect(result.arrived).toBeLessThan(500);
    expect(result).toMatchObject({ errors: 0, timeouts: 0 });
    expect(answers).toEqual(Array.from({ length: result.arrived }, () => 'same'));
    expect(arrivals).toHaveLength(result.arrived);
    // Arrival times only move forward, and stay within the load's two seconds.
    expect(arrivals).toEqual([...arrivals].sort((a, b) => a - b));
    expect(arrivals[0]).toBe(0);
    expect(arrivals.at(-1)!).toBeLessThan(2_000);
    // Each quarter of a second gets about a quarter of the requests (about 50). autocannon's
    // overallRate sent a second's share of each connection at the second's start: every request
    // of a second in its first quarter, and none in the other three.
    for (let quarter = 0; quarter < 8; quarter += 1) {
      const inQuarter = arrivals.filter(
        (t) => t >= quarter * 250 && t < (quarter + 1) * 250,
      ).length;
      expect(inQuarter, `quarter ${quarter}`).toBeGreaterThan(25);
      expect(inQuarter, `quarter ${quarter}`).toBeLessThan(80);
    }
    // And each was sent at its time, never before: a busy machine may make a request late, but
    // a burst sends the second's later arrivals early.
    const early = arrivals.filter((at, i) => received.get(i + 1)! < at - 1);
    expect(early).toEqual([]);
  });

  it('counts the wait for a busy connection in the latency, from the arrival', async () => {
    const url = await listen((_req, res) => {
      setTimeout(() => res.end('ok'), 50);
    });
    const latencies: number[] = [];
    const result = await runPacedLoad({
      url,
      ratePerSecond: 100,
      seconds: 1,
      // Two connections of 50 ms answers carry 40 requests a second: the rest queue.
      maxConnections: 2,
      timeoutMs: 10_000,
      next: () => ({
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'text/plain' },
        body: 'x',
        onAnswer: (_status, _body, latencyMs) => latencies.push(latencyMs),
      }),
    });
    expect(latencies).toHaveLength(result.arrived);
    expect(Math.min(...latencies)).toBeGreaterThanOrEqual(45);
    // The last of ~100 arrivals within a second is answered after ~2.5 s of 50 ms answers two
    // at a time: it waited more than a second, and its latency says so.
    expect(Math.max(...latencies)).toBeGreaterThan(1_000);
  });

  // The reads-under-load scenario sends orders until its reads are done (bench/lib/scenarios/orders.ts).
  it('stops its arrivals when `until` settles, and waits for the answers due', async () => {
    const url = await listen((_req, res) => {
      setTimeout(() => res.end('ok'), 20);
    });
    let answered = 0;
    // Settles at the tenth answer, as the scenario's reads settle when they are done.
    let tenthAnswer: () => void = () => undefined;
    const until = new Promise<void>((resolve) => (tenthAnswer = resolve));
    const result = await runPacedLoad({
      url,
      ratePerSecond: 100,
      seconds: 60,
      until,
      maxConnections: 8,
      timeoutMs: 5_000,
      next: () => ({
        method: 'GET',
        path: '/',
        headers: {},
        onAnswer: () => {
          answered += 1;
          if (answered === 10) tenthAnswer();
        },
      }),
    });
    // Arrivals stopped a little after the tenth answer, not 6,000 in a minute; each answered
    // before it returned.
    expect(result.arrived).toBeGreaterThanOrEqual(10);
    expect(result.arrived).toBeLessThan(200);
    expect(result.durationSeconds).toBeLessThan(30);
    expect(answered).toBe(result.arrived);
  });
});
