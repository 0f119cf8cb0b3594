/**
 * Group commit (decision 0034): requests that arrive while earlier ones are at the database wait
 * and then go together, in one statement and one transaction, instead of one each. Nothing waits
 * on a timer: when no batch is running, a request leaves at once (alone, under a light load), so a
 * batch is exactly what queued while the database was busy — the heavier the load, the bigger the
 * batches (TigerBeetle's and PostgreSQL's own group commit).
 *
 * With `overlapAfterMs` (decision 0067), a batch leaves beside one already at the database only
 * when a full batch (`maxBatch`) is waiting, or when the newest batch there has taken
 * `overlapAfterMs` (stuck behind a lock, say): otherwise what queues waits for the running batch
 * and leaves with the others as one bigger batch, which costs the database less per item. Without
 * it (or with 0), up to `maxInFlight` batches leave as soon as there is something to send.
 *
 * `runBatch` answers each item of a batch, in order, with its result or its own error. When it
 * throws instead (the batch's transaction failed as a whole: a deadlock, a lost connection, a
 * bug), every item of that batch runs again alone through `runOne`, so one item's failure never
 * becomes another's: each gets the answer it would have had on its own.
 */
export type ItemResult<O> = { ok: true; value: O } | { ok: false; error: unknown };

export interface GroupCommitOptions<I, O> {
  runBatch: (items: I[]) => Promise<ItemResult<O>[]>;
  runOne: (item: I) => Promise<O>;
  /** Largest batch. */
  maxBatch: number;
  /** Batches at the database at once (each holds one pooled connection). */
  maxInFlight: number;
  /**
   * When set, a batch leaves beside those at the database only if a full batch is waiting or the
   * newest of them has been there this many milliseconds (decision 0067); unset or 0: at once.
   */
  overlapAfterMs?: number | undefined;
  /** Told each batch's size as it leaves (a metric). */
  onBatch?: (size: number) => void;
}

/** How big batches get and how many run at once: the options besides the batch's own work. */
export type GroupCommitLimits = Pick<
  GroupCommitOptions<unknown, unknown>,
  'maxBatch' | 'maxInFlight' | 'overlapAfterMs'
>;

/**
 * The terminal path's limits (`TERMINAL_GROUP_COMMIT_*`), the same for each of its group commits:
 * the orders, keyed or not, and the key checks alone.
 */
export const terminalGroupCommitLimits = (config: {
  TERMINAL_GROUP_COMMIT_MAX: number;
  TERMINAL_GROUP_COMMIT_IN_FLIGHT: number;
  TERMINAL_GROUP_COMMIT_OVERLAP_MS: number;
}): GroupCommitLimits => ({
  maxBatch: config.TERMINAL_GROUP_COMMIT_MAX,
  maxInFlight: config.TERMINAL_GROUP_COMMIT_IN_FLIGHT,
  overlapAfterMs: config.TERMINAL_GROUP_COMMIT_OVERLAP_MS,
});

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<I, O> {
  private queue: Waiting<I, O>[] = [];
  private inFlight = 0;
  /** When each batch at the database left (performance.now()), oldest first. */
  private readonly leftAt: number[] = [];
  private wake: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: GroupCommitOptions<I, O>) {
    const positive = (n: number) => Number.isSafeInteger(n) && n >= 1;
    if (!positive(options.maxBatch) || !positive(options.maxInFlight)) {
      throw new Error('GroupCommit needs maxBatch and maxInFlight of at least 1');
    }
  }

  /** Queues `item`; resolves with its own result when its batch has committed. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  /** Requests waiting for a free slot, and batches running (tests, metrics). */
  get stats(): { queued: number; inFlight: number } {
    return { queued: this.queue.length, inFlight: this.inFlight };
  }

  private pump(): void {
    const { maxBatch, maxInFlight, overlapAfterMs } = this.options;
    while (this.inFlight < maxInFlight && this.queue.length > 0) {
      if (this.inFlight > 0 && overlapAfterMs !== undefined && this.queue.length < maxBatch) {
        const waited = performance.now() - this.leftAt[this.leftAt.length - 1]!;
        if (waited < overlapAfterMs) {
          this.pumpIn(overlapAfterMs - waited);
          return;
        }
      }
      const batch = this.queue.splice(0, maxBatch);
      this.inFlight += 1;
      const left = performance.now();
      this.leftAt.push(left);
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.leftAt.splice(this.leftAt.indexOf(left), 1);
        this.pump();
      });
    }
  }

  /** Looks at the queue again in `ms` (once: a wake already set comes no later than needed). */
  private pumpIn(ms: number): void {
    if (this.wake) return;
    this.wake = setTimeout(() => {
      this.wake = undefined;
      this.pump();
    }, Math.ceil(ms));
    // A queue that waits is never the reason a process stays up.
    this.wake.unref?.();
  }

  private async run(batch: Waiting<I, O>[]): Promise<void> {
    this.options.onBatch?.(batch.length);
    if (batch.length === 1) {
      await this.runAlone(batch[0]!);
      return;
    }
    let results: ItemResult<O>[];
    try {
      results = await this.options.runBatch(batch.map((w) => w.item));
      if (results.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} answered ${results.length} results`);
      }
    } catch {
      // Nothing of the batch committed (or, if the connection died after the commit, each item's
      // own idempotency answers its retry): each item again, alone, gets its own answer.
      await Promise.all(batch.map((w) => this.runAlone(w)));
      return;
    }
    batch.forEach((w, i) => {
      const result = results[i]!;
      if (result.ok) w.resolve(result.value);
      else w.reject(result.error);
    });
  }

  private async runAlone(waiting: Waiting<I, O>): Promise<void> {
    try {
      waiting.resolve(await this.options.runOne(waiting.item));
    } catch (error) {
      waiting.reject(error);
    }
  }
}
