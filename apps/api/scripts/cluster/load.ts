// A steady, bounded load of terminal orders through the HTTP frontend, each with its own
// Idempotency-Key, every answer recorded against the phase it was sent in.
import crypto from 'node:crypto';
import { waitScale } from './processes';
import type { Programme } from './programme';

export interface OrderBody {
  company_code: string;
  employee_id: string;
  order_type: 'dine_in';
  items: { name: string; quantity: number; unit_tokens: number }[];
}

export interface Attempt {
  phase: string;
  key: string;
  body: OrderBody;
  sentAt: number;
  doneAt: number;
  /** HTTP status, or 0 when the connection failed or the client gave up. */
  status: number;
  code?: string;
  retryAfter?: string | null;
  orderId?: number;
  error?: string;
}

/**
 * No answer within this (× waitScale() when the request is sent: a busy machine answers slower)
 * is a hang: the API must answer 503 quickly during an outage.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

export async function sendOrder(
  baseUrl: string,
  terminalKey: string,
  key: string,
  body: OrderBody,
): Promise<Omit<Attempt, 'phase' | 'key' | 'body'>> {
  const sentAt = Date.now();
  try {
    const res = await fetch(`${baseUrl}/api/v1/orders`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${terminalKey}`,
        'idempotency-key': key,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS * waitScale()),
    });
    const text = await res.text();
    let json: { data?: { id?: number }; code?: string } = {};
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      // HAProxy's own 502/503 pages are HTML
    }
    return {
      sentAt,
      doneAt: Date.now(),
      status: res.status,
      ...(json.code ? { code: json.code } : {}),
      retryAfter: res.headers.get('retry-after'),
      ...(res.status === 201 && json.data?.id ? { orderId: json.data.id } : {}),
    };
  } catch (error) {
    // fetch's TypeError says only "fetch failed"; its cause names the socket error.
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return {
      sentAt,
      doneAt: Date.now(),
      status: 0,
      error: `${(error as Error).name}${cause ? ` ${cause}` : ''}`,
    };
  }
}

/**
 * Sends `ratePerSecond` orders a second, never more than `maxInFlight` at once, until stopped.
 * `phase` is read when each request is sent, so the caller moves it as it injects faults.
 */
export class OrderLoad {
  readonly attempts: Attempt[] = [];
  phase = 'warm-up';
  private timer: NodeJS.Timeout | null = null;
  private inFlight = new Set<Promise<void>>();
  private sequence = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly programme: Programme,
    private readonly ratePerSecond: number,
    private readonly maxInFlight: number,
  ) {}

  body(): OrderBody {
    const staff = this.programme.staffNumbers;
    this.sequence += 1;
    return {
      company_code: this.programme.companyCode,
      employee_id: staff[this.sequence % staff.length]!,
      order_type: 'dine_in',
      items: [{ name: 'Meal', quantity: 1, unit_tokens: 1 + (this.sequence % 3) }],
    };
  }

  start() {
    this.timer = setInterval(() => {
      if (this.inFlight.size >= this.maxInFlight) return; // bounded: skip a beat, do not queue
      const phase = this.phase;
      const key = crypto.randomUUID();
      const body = this.body();
      const done = sendOrder(this.baseUrl, this.programme.terminalKey, key, body).then((r) => {
        this.attempts.push({ phase, key, body, ...r });
      });
      this.inFlight.add(done);
      void done.finally(() => this.inFlight.delete(done));
    }, 1000 / this.ratePerSecond);
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all(this.inFlight);
  }
}

export interface ReadinessSample {
  at: number;
  instance: string;
  status: number;
}

/** Polls every instance's own /readyz (past HAProxy), so a 503 window shows even when short. */
export class ReadinessWatch {
  readonly samples: ReadinessSample[] = [];
  private running = false;
  private loop: Promise<void> | null = null;

  constructor(private readonly instances: () => { name: string; url: string }[]) {}

  start(everyMs = 100) {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        await Promise.all(
          this.instances().map(async ({ name, url }) => {
            let status = 0;
            try {
              status = (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3_000) }))
                .status;
            } catch {
              status = 0;
            }
            this.samples.push({ at: Date.now(), instance: name, status });
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    })();
  }

  async stop() {
    this.running = false;
    await this.loop;
  }
}
