import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reportWaitsTo, until, waitScale } from '../scripts/cluster/processes';

// The cluster harness's waits (npm run cluster:test, issue 39): a limit set for a quiet machine is
// stretched by the machine's load, so a busy CI machine does not fail a recovery that is only slow,
// and a long wait says what it is waiting for. On a fake clock: the waits are about time.
describe("the cluster harness's waits", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
    reportWaitsTo(() => undefined);
  });

  /** `until` with a check that turns true `afterMs` after the start, run on the fake clock. */
  async function waitFor(afterMs: number, timeoutMs: number) {
    const start = Date.now();
    const waiting = until('the thing', () => Date.now() - start >= afterMs, timeoutMs, 1_000);
    const settled = waiting.then(
      () => 'ready',
      (error: Error) => error.message,
    );
    await vi.advanceTimersByTimeAsync(afterMs + timeoutMs * 10);
    return settled;
  }

  it('fail after the limit on a quiet machine', async () => {
    vi.stubEnv('CLUSTER_WAIT_SCALE', '1');
    expect(waitScale()).toBe(1);
    expect(await waitFor(150_000, 120_000)).toMatch(
      /^timed out after 12\d{4} ms \(120000 ms × load scale 1\.0\) waiting for the thing$/,
    );
  });

  it('stretch the limit by the scale', async () => {
    vi.stubEnv('CLUSTER_WAIT_SCALE', '2.5');
    expect(await waitFor(150_000, 120_000)).toBe('ready');
    expect(await waitFor(290_000, 120_000)).toBe('ready');
    expect(await waitFor(310_000, 120_000)).toMatch(/× load scale 2\.5\) waiting for the thing$/);
  });

  it('scale by the load per core when not configured, within 1 and 4', () => {
    vi.stubEnv('CLUSTER_WAIT_SCALE', '');
    const scale = waitScale();
    expect(scale).toBeGreaterThanOrEqual(1);
    expect(scale).toBeLessThanOrEqual(4);
  });

  it('report a long wait every 20 s with what they wait for', async () => {
    vi.stubEnv('CLUSTER_WAIT_SCALE', '1');
    const lines: string[] = [];
    reportWaitsTo((line) => lines.push(line));
    expect(await waitFor(45_000, 120_000)).toBe('ready');
    expect(lines).toEqual([
      'still waiting after 20 s (up to 120 s) for the thing',
      'still waiting after 40 s (up to 120 s) for the thing',
    ]);
  });
});
