import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GroupCommit, type ItemResult } from './group-commit';

/** A promise the test settles by hand: a batch "at the database" until released. */
function deferred() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

/** Lets queued microtasks and the batches they start run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A group commit over numbers whose every call is recorded and held until released. */
function recorder(
  options: {
    maxBatch?: number;
    maxInFlight?: number;
    overlapAfterMs?: number;
    failBatch?: boolean;
  } = {},
) {
  const calls: { kind: 'batch' | 'one'; items: number[] }[] = [];
  const gates: ReturnType<typeof deferred>[] = [];
  const hold = async () => {
    const gate = deferred();
    gates.push(gate);
    await gate.promise;
  };
  const answer = (n: number): ItemResult<string> =>
    n < 0 ? { ok: false, error: new Error(`refused ${n}`) } : { ok: true, value: `done ${n}` };
  const group = new GroupCommit<number, string>({
    runBatch: async (items) => {
      calls.push({ kind: 'batch', items });
      await hold();
      if (options.failBatch) throw new Error('the batch failed as a whole');
      return items.map(answer);
    },
    runOne: async (item) => {
      calls.push({ kind: 'one', items: [item] });
      await hold();
      const result = answer(item);
      if (!result.ok) throw result.error;
      return result.value;
    },
    maxBatch: options.maxBatch ?? 64,
    maxInFlight: options.maxInFlight ?? 1,
    overlapAfterMs: options.overlapAfterMs,
  });
  const releaseAll = async () => {
    while (gates.length > 0) {
      gates.shift()!.release();
      await settle();
    }
  };
  return { group, calls, gates, releaseAll };
}

describe('group commit', () => {
  it('sends a request alone at once when nothing is at the database', async () => {
    const { group, calls, releaseAll } = recorder();
    const answer = group.submit(1);
    await settle();
    expect(calls).toEqual([{ kind: 'one', items: [1] }]);
    await releaseAll();
    expect(await answer).toBe('done 1');
  });

  it('sends what arrived while the database was busy as one batch, in order of arrival', async () => {
    const { group, calls, releaseAll } = recorder();
    const first = group.submit(1);
    await settle();
    const rest = [2, 3, 4, 5].map((n) => group.submit(n));
    await settle();
    // Still one call: the four wait for the first to come back.
    expect(calls).toHaveLength(1);
    expect(group.stats).toEqual({ queued: 4, inFlight: 1 });
    await releaseAll();
    expect(calls).toEqual([
      { kind: 'one', items: [1] },
      { kind: 'batch', items: [2, 3, 4, 5] },
    ]);
    expect(await first).toBe('done 1');
    expect(await Promise.all(rest)).toEqual(['done 2', 'done 3', 'done 4', 'done 5']);
    expect(group.stats).toEqual({ queued: 0, inFlight: 0 });
  });

  it('caps a batch at maxBatch and runs up to maxInFlight batches at once', async () => {
    const { group, calls, releaseAll } = recorder({ maxBatch: 3, maxInFlight: 2 });
    const answers = [1, 2].map((n) => group.submit(n));
    await settle();
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
    answers.push(...[3, 4, 5, 6, 7, 8, 9].map((n) => group.submit(n)));
    await settle();
    await releaseAll();
    expect(calls.map((c) => c.items)).toEqual([[1], [2], [3, 4, 5], [6, 7, 8], [9]]);
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `done ${n}`));
  });

  it('gives each item of a batch its own answer: one refusal fails no other', async () => {
    const { group, releaseAll } = recorder();
    const first = group.submit(1);
    await settle();
    const batch = [2, -3, 4].map((n) => group.submit(n).catch((e: Error) => e.message));
    await settle();
    await releaseAll();
    await first;
    expect(await Promise.all(batch)).toEqual(['done 2', 'refused -3', 'done 4']);
  });

  it('runs each item of a batch that failed as a whole again alone, each with its own answer', async () => {
    const { group, calls, releaseAll } = recorder({ failBatch: true });
    const first = group.submit(1);
    await settle();
    const batch = [2, -3, 4].map((n) => group.submit(n).catch((e: Error) => e.message));
    await settle();
    await releaseAll();
    await first;
    expect(await Promise.all(batch)).toEqual(['done 2', 'refused -3', 'done 4']);
    expect(calls).toEqual([
      { kind: 'one', items: [1] },
      { kind: 'batch', items: [2, -3, 4] },
      { kind: 'one', items: [2] },
      { kind: 'one', items: [-3] },
      { kind: 'one', items: [4] },
    ]);
  });

  describe('with overlapAfterMs (decision 0067)', () => {
    /** A batch of at most 4, two at the database at once, a second after 20 ms. */
    const overlapping = { maxBatch: 4, maxInFlight: 2, overlapAfterMs: 20 };
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('holds what arrives while a batch is at the database, then sends it as one batch', async () => {
      const { group, calls, gates, releaseAll } = recorder(overlapping);
      const answers = [group.submit(1)];
      await settle();
      vi.advanceTimersByTime(10);
      answers.push(group.submit(2), group.submit(3));
      await settle();
      // Without overlapAfterMs, 2 would have left at once in the second slot (test above).
      expect(calls.map((c) => c.items)).toEqual([[1]]);
      expect(group.stats).toEqual({ queued: 2, inFlight: 1 });
      gates.shift()!.release();
      await settle();
      expect(calls.map((c) => c.items)).toEqual([[1], [2, 3]]);
      await releaseAll();
      expect(await Promise.all(answers)).toEqual(['done 1', 'done 2', 'done 3']);
    });

    it('sends a full batch beside the running one at once', async () => {
      const { group, calls, releaseAll } = recorder(overlapping);
      const answers = [1, 2, 3, 4, 5, 6].map((n) => group.submit(n));
      await settle();
      // 1 alone; 2–5 make a full batch and leave beside it; 6 waits for a slot.
      expect(calls.map((c) => c.items)).toEqual([[1], [2, 3, 4, 5]]);
      expect(group.stats).toEqual({ queued: 1, inFlight: 2 });
      await releaseAll();
      expect(calls.map((c) => c.items)).toEqual([[1], [2, 3, 4, 5], [6]]);
      expect(await Promise.all(answers)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `done ${n}`));
    });

    it('sends what waits beside batches that have taken overlapAfterMs, counted from the newest', async () => {
      const { group, calls, releaseAll } = recorder({ ...overlapping, maxInFlight: 3 });
      const answers = [group.submit(1)];
      await settle();
      answers.push(group.submit(2));
      await settle();
      vi.advanceTimersByTime(19);
      await settle();
      expect(calls.map((c) => c.items)).toEqual([[1]]);
      vi.advanceTimersByTime(1);
      await settle();
      // The first batch is stuck (20 ms): 2 leaves beside it.
      expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
      answers.push(group.submit(3));
      await settle();
      vi.advanceTimersByTime(19);
      await settle();
      // 1 has been there 39 ms, but 2 only 19: 3 still waits.
      expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
      vi.advanceTimersByTime(1);
      await settle();
      expect(calls.map((c) => c.items)).toEqual([[1], [2], [3]]);
      await releaseAll();
      expect(await Promise.all(answers)).toEqual(['done 1', 'done 2', 'done 3']);
      expect(group.stats).toEqual({ queued: 0, inFlight: 0 });
    });
  });
});
