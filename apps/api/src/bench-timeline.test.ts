// The soak's timeline (bench/lib/timeline.ts): answers by window of arrival, and the API's own
// metrics read from its Prometheus text.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTimeline, metricValue } from '../../../bench/lib/timeline';

const PROMETHEUS = `# HELP nodejs_gc_duration_seconds Garbage collection duration by kind
# TYPE nodejs_gc_duration_seconds histogram
nodejs_gc_duration_seconds_bucket{le="0.001",kind="minor"} 3
nodejs_gc_duration_seconds_sum{kind="minor"} 0.25
nodejs_gc_duration_seconds_count{kind="minor"} 40
nodejs_gc_duration_seconds_sum{kind="major"} 0.5
nodejs_eventloop_lag_max_seconds 0.042
db_pool_waiting_requests 3
nodejs_eventloop_lag_p99_seconds NaN
`;

describe('metricValue', () => {
  it('sums a metric’s samples over its labels, and not those of a longer name', () => {
    expect(metricValue(PROMETHEUS, 'nodejs_gc_duration_seconds_sum')).toBe(0.75);
    expect(metricValue(PROMETHEUS, 'nodejs_gc_duration_seconds_count')).toBe(40);
    expect(metricValue(PROMETHEUS, 'db_pool_waiting_requests')).toBe(3);
  });

  it('answers null for a metric absent or not a number', () => {
    expect(metricValue(PROMETHEUS, 'db_pool_connections')).toBeNull();
    expect(metricValue(PROMETHEUS, 'nodejs_eventloop_lag_p99_seconds')).toBeNull();
  });
});

describe('createTimeline', () => {
  let server: http.Server;
  let url = '';
  beforeAll(async () => {
    server = http.createServer((_request, response) => response.end(PROMETHEUS));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('puts each answer in the window its request arrived in, with the API’s readings', async () => {
    // A clock the test moves; windows of 10 s, which the real interval never reaches meanwhile.
    let clock = 1_000;
    // No database at this address: its columns stay empty, the API's are read.
    const timeline = createTimeline({
      apiUrl: url,
      databaseUrl: 'postgres://nobody@127.0.0.1:1/none',
      windowSeconds: 10,
      now: () => clock,
    });
    // Not started: not recorded.
    timeline.record(1);
    await timeline.start();
    timeline.record(5);
    // Sent 15 ms before the timeline started: counted in its first window.
    timeline.record(15);
    // The first window's end: its reading.
    clock += 12_000;
    await timeline.read();
    // Arrived 4 s after the start: in the first window, with the two above.
    timeline.record(8_000);
    clock += 13_000;
    // Arrived 25 s after the start: the third window.
    timeline.record(7);
    const windows = timeline.stop();

    expect(windows.map((w) => [w.second, w.served])).toEqual([
      [0, 3],
      [20, 1],
    ]);
    expect(windows[0]).toMatchObject({ p50: 15, max: 8_000, loopDelayMaxMs: 42, poolWaiting: 3 });
    expect(windows[0]!.lockWaits).toBeNull();
    // A window without a reading at its end has empty columns.
    expect(windows[1]).toMatchObject({ loopDelayMaxMs: null, poolWaiting: null });
  });
});
