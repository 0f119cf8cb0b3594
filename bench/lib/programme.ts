/**
 * The benchmark programme: companies, employees, merchants, terminals and months of history,
 * generated reproducibly from a seed and loaded in bulk.
 *
 * The history is simulated in time order, the way the API would have written it: an opening
 * allocation, first distributions, orders (a few refunded), bonus distributions, top-ups and a
 * monthly reset per company and token month (expiries, allocation, renewals). Every ledger row is
 * computed against the running balance of its wallet, so each wallet's rows chain by id exactly as
 * the ledger trigger would have made them. The rows are written as COPY text files, then loaded in
 * one transaction with triggers off (session_replication_role = replica: the chain is already
 * right, and the trigger's one UPDATE per row is what makes row-by-row loading slow), the tables
 * truncated in that transaction so COPY FREEZE writes them already visible, and the secondary
 * indexes built once at the end. The invariants (apps/api/test/invariants.ts) are checked after.
 */
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import {
  addMonths,
  formatPeriod,
  nextPeriod,
  parsePeriod,
  periodAt,
  periodStart,
  hashPassword,
  terminalKeyFrom,
} from '@app/api/bench';
import { withClient } from './database';
import { Random } from './random';

export interface ProgrammeSize {
  companies: number;
  employees: number;
  /** Employees of the first company, the one the monthly reset scenario resets. */
  bigCompanyEmployees: number;
  merchants: number;
  terminalsPerMerchant: number;
  months: number;
  /** Mean orders an active employee places in a token month. */
  ordersPerEmployeeMonth: number;
}

/** Issue 6: 500 companies, 200,000 employees, 50 merchants, 500 terminals, 12 months, > 10M rows. */
export const FULL_SIZE: ProgrammeSize = {
  companies: 500,
  employees: 200_000,
  bigCompanyEmployees: 100_000,
  merchants: 50,
  terminalsPerMerchant: 10,
  months: 12,
  ordersPerEmployeeMonth: 1.7,
};

/**
 * The full programme three times over in time (issue 16's growth row: at least 35 M ledger rows):
 * the same companies, staff, merchants and terminals, 37 months of history instead of 12, so the
 * ledger (3.1× the rows) and the orders grow as a programme's do, and what a read asks for (this
 * month, one page, one company) stays the same size.
 */
export const TRIPLE_SIZE: ProgrammeSize = { ...FULL_SIZE, months: 37 };

/**
 * A twentieth of the full programme's history (10 % of its employees, 3 months) with all its
 * merchants and terminals: enough wallets and terminals for the order scenario to run without
 * contention at 128 connections, generated in a minute or two rather than ten.
 */
export const SMALL_SIZE: ProgrammeSize = {
  companies: 50,
  employees: 20_000,
  bigCompanyEmployees: 10_000,
  merchants: 50,
  terminalsPerMerchant: 10,
  months: 3,
  ordersPerEmployeeMonth: 1.7,
};

/** The CI smoke test's programme: the same generator, a few seconds of work. */
export const TINY_SIZE: ProgrammeSize = {
  companies: 4,
  employees: 400,
  bigCompanyEmployees: 200,
  merchants: 2,
  terminalsPerMerchant: 2,
  months: 3,
  ordersPerEmployeeMonth: 1.3,
};

/** Every generated user signs in with this password (argon2id-hashed like any other). */
export const BENCH_PASSWORD = 'Bench#2026';
/** The programme's time zone; the bench starts the API with APP_TIMEZONE=UTC. */
export const TIME_ZONE = 'UTC';

/** What the bench needs to know about a generated programme; stored as the database's comment. */
export interface ProgrammeInfo {
  seed: number;
  until: string;
  size: ProgrammeSize;
  password: string;
  admin: string;
  groupHr: string;
  bigCompany: { id: number; code: string; admin: string; employees: number };
  merchants: { id: number; code: string; terminals: { id: number; code: string }[] }[];
  ledgerRows: number;
  orders: number;
  generatedAt: string;
}

export interface GenerationReport {
  info: ProgrammeInfo;
  rows: Record<string, number>;
  seconds: { simulate: number; copy: number; indexes: number; vacuum: number; total: number };
}

/** A terminal's API key, derived from the seed so the bench can use it without storing it. */
export function terminalKey(seed: number, merchantCode: string, terminalCode: string): string {
  const digest = crypto
    .createHash('sha256')
    .update(`bench:${seed}:${merchantCode}:${terminalCode}`)
    .digest('base64url');
  return `tk_${digest}`;
}

const DAY = 86_400_000;
const MINUTE = 60_000;
const FIRST_NAMES = ['Ann', 'Ben', 'Chen', 'Dana', 'Eli', 'Fang', 'Gus', 'Hui', 'Ivy', 'Jun'];
const LAST_NAMES = ['Lee', 'Wong', 'Smith', 'Tan', 'Lim', 'Chan', 'Ng', 'Brown', 'Ho', 'Yip'];
const ITEMS = ['Coffee', 'Tea', 'Sandwich', 'Salad', 'Noodles', 'Rice bowl', 'Soup', 'Juice'];
const ORDER_TYPES = ['meal', 'drink', 'snack'];

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const iso = (ms: number) => new Date(ms).toISOString();

/** One COPY text field: \N for null, backslash escapes for the characters COPY reserves. */
function field(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}
const line = (values: (string | number | null)[]) => `${values.map(field).join('\t')}\n`;

/** A COPY text file written in large chunks, honouring the stream's backpressure between days. */
class CopyFile {
  rows = 0;
  private parts: string[] = [];
  private size = 0;
  private blocked = false;
  private readonly stream: fs.WriteStream;

  constructor(
    readonly table: string,
    readonly columns: string[],
    readonly file: string,
  ) {
    this.stream = fs.createWriteStream(file);
  }

  add(values: (string | number | null)[]): void {
    const text = line(values);
    this.parts.push(text);
    this.size += text.length;
    this.rows += 1;
    if (this.size > 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    if (!this.stream.write(this.parts.join(''))) this.blocked = true;
    this.parts = [];
    this.size = 0;
  }

  async drain(): Promise<void> {
    this.flush();
    if (this.blocked) {
      await once(this.stream, 'drain');
      this.blocked = false;
    }
  }

  async close(): Promise<void> {
    this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
  }
}

interface ScheduledEvent {
  t: number;
  seq: number;
  run: () => void;
}

/** A binary min-heap of events by time, then by the order they were scheduled. */
class EventHeap {
  private readonly items: ScheduledEvent[];
  constructor(items: ScheduledEvent[]) {
    this.items = items;
    for (let i = (items.length >> 1) - 1; i >= 0; i -= 1) this.down(i);
  }
  get size() {
    return this.items.length;
  }
  private less(a: ScheduledEvent, b: ScheduledEvent) {
    return a.t < b.t || (a.t === b.t && a.seq < b.seq);
  }
  push(event: ScheduledEvent) {
    const items = this.items;
    items.push(event);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }
  pop(): ScheduledEvent {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      this.down(0);
    }
    return top;
  }
  private down(start: number) {
    const items = this.items;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < items.length && this.less(items[left]!, items[smallest]!)) smallest = left;
      if (right < items.length && this.less(items[right]!, items[smallest]!)) smallest = right;
      if (smallest === i) return;
      [items[i], items[smallest]] = [items[smallest]!, items[i]!];
      i = smallest;
    }
  }
}

interface Company {
  id: number;
  code: string;
  name: string;
  resetDay: number;
  initToken: number;
  employeeMonthlyTokens: number;
  balance: number;
  tokenMonth: string;
  createdAt: number;
  updatedAt: number;
  firstEmployee: number;
  employeeCount: number;
  adminUserId: number;
}

interface PendingOrder {
  id: number;
  companyId: number;
  employeeId: number;
  merchantId: number;
  terminalId: number;
  orderType: string;
  items: string;
  firstItemTokens: number;
  subtotal: number;
  refunded: number;
  orderedAt: number;
  lastRefundedAt: number | null;
}

interface Extra {
  orderId?: number;
  refundReason?: string;
  transferId?: string;
  actorUserId?: number;
  terminalId?: number;
  merchantId?: number;
  note?: string;
}

const ADMIN_USER_ID = 1;
const GROUP_HR_USER_ID = 2;

/** Simulates the programme's history into COPY files, one per table. */
class Simulation {
  private readonly random: Random;
  private readonly until: number;
  private readonly companies: Company[] = [];
  private readonly employeeCompany: Int32Array;
  private readonly employeeBalance: Float64Array;
  private readonly employeeMonthly: Int32Array;
  private readonly employeeActive: Uint8Array;
  private readonly employeeUpdatedAt: Float64Array;
  private readonly employeeTokenMonth: string[];
  private readonly terminalMerchant: Int32Array;
  private readonly terminalCount: number;
  private readonly pending = new Map<number, PendingOrder>();
  private readonly buckets = new Map<number, ScheduledEvent[]>();
  private heap = new EventHeap([]);
  private currentDay = -Infinity;
  private seq = 0;
  private ledgerId = 0;
  private orderId = 0;
  readonly files: Record<
    | 'users'
    | 'companies'
    | 'employees'
    | 'merchants'
    | 'terminals'
    | 'orders'
    | 'keys'
    | 'ledger'
    | 'resets',
    CopyFile
  >;

  constructor(
    private readonly size: ProgrammeSize,
    private readonly seed: number,
    until: Date,
    dir: string,
  ) {
    this.random = new Random(seed);
    this.until = until.getTime();
    const n = size.employees + 1;
    this.employeeCompany = new Int32Array(n);
    this.employeeBalance = new Float64Array(n);
    this.employeeMonthly = new Int32Array(n).fill(-1);
    this.employeeActive = new Uint8Array(n);
    this.employeeUpdatedAt = new Float64Array(n);
    this.employeeTokenMonth = new Array<string>(n).fill('');
    this.terminalCount = size.merchants * size.terminalsPerMerchant;
    this.terminalMerchant = new Int32Array(this.terminalCount + 1);
    const file = (table: string, columns: string[]) =>
      new CopyFile(table, columns, path.join(dir, `${table}.copy`));
    this.files = {
      users: file('users', [
        'id',
        'username',
        'email',
        'password_hash',
        'type',
        'status',
        'company_id',
        'merchant_id',
        'employee_id',
        'password_changed_at',
        'created_at',
        'updated_at',
      ]),
      companies: file('companies', [
        'id',
        'code',
        'name',
        'status',
        'monthly_reset_day',
        'init_token',
        'employee_monthly_tokens',
        'token_balance',
        'token_month',
        'next_reset_at',
        'created_at',
        'updated_at',
      ]),
      employees: file('employees', [
        'id',
        'company_id',
        'employee_id',
        'name',
        'email',
        'status',
        'available_tokens',
        'monthly_tokens',
        'token_month',
        'created_at',
        'updated_at',
      ]),
      merchants: file('merchants', ['id', 'code', 'name', 'status', 'created_at', 'updated_at']),
      terminals: file('terminals', [
        'id',
        'merchant_id',
        'code',
        'name',
        'status',
        'api_key_hash',
        'api_key_prefix',
        'key_rotated_at',
        'created_at',
        'updated_at',
      ]),
      orders: file('orders', [
        'id',
        'order_no',
        'company_id',
        'employee_id',
        'merchant_id',
        'terminal_id',
        'order_type',
        'items',
        'subtotal',
        'refunded_amount',
        'ordered_at',
        'last_refunded_at',
      ]),
      keys: file('terminal_idempotency_keys', [
        'terminal_id',
        'idempotency_key',
        'request_hash',
        'response_status',
        'response_body',
        'order_id',
        'created_at',
      ]),
      ledger: file('token_transactions', [
        'id',
        // The ledger's write order (migration 0013): rows are simulated in time order and each is
        // computed against its wallet's running balance, so id order is every wallet's chain order.
        'seq',
        'occurred_at',
        'event',
        'company_id',
        'employee_id',
        'direction',
        'amount',
        'balance_before',
        'balance_after',
        'period',
        'order_id',
        'refund_reason',
        'transfer_id',
        'actor_user_id',
        'terminal_id',
        'merchant_id',
        'note',
      ]),
      resets: file('monthly_resets', [
        'company_id',
        'period',
        'previous_period',
        'scheduled_at',
        'applied_at',
        'expired_employee_tokens',
        'expired_company_tokens',
        'added_tokens',
        'renewed_employees',
        'allocated_tokens',
      ]),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Scheduling

  private schedule(t: number, run: () => void): void {
    if (t >= this.until) return;
    const event = { t, seq: (this.seq += 1), run };
    const day = Math.floor(t / DAY);
    if (day <= this.currentDay) {
      this.heap.push(event);
      return;
    }
    const bucket = this.buckets.get(day);
    if (bucket) bucket.push(event);
    else this.buckets.set(day, [event]);
  }

  private uniform(from: number, to: number): number {
    return from + Math.floor(this.random.next() * Math.max(1, to - from));
  }

  // -------------------------------------------------------------------------------------------
  // The ledger: one row against the running balance of its wallet

  private post(
    t: number,
    event: string,
    companyId: number,
    employeeId: number | null,
    direction: 'received' | 'sent',
    amount: number,
    period: string,
    extra: Extra = {},
  ): number {
    const company = this.companies[companyId - 1]!;
    const before = employeeId === null ? company.balance : this.employeeBalance[employeeId]!;
    const after = direction === 'received' ? before + amount : before - amount;
    if (amount <= 0 || after < 0) {
      throw new Error(`generator bug: ${event} of ${amount} on a balance of ${before}`);
    }
    if (employeeId === null) company.balance = after;
    else this.employeeBalance[employeeId] = after;
    this.ledgerId += 1;
    this.files.ledger.add([
      this.ledgerId,
      this.ledgerId,
      iso(t),
      event,
      companyId,
      employeeId,
      direction,
      amount,
      before,
      after,
      period,
      extra.orderId ?? null,
      extra.refundReason ?? null,
      extra.transferId ?? null,
      extra.actorUserId ?? null,
      extra.terminalId ?? null,
      extra.merchantId ?? null,
      extra.note ?? null,
    ]);
    return this.ledgerId;
  }

  private transfer(
    t: number,
    company: Company,
    employeeId: number,
    event: 'employee_issued' | 'monthly_tokens_reset',
    amount: number,
    period: string,
    extra: Extra = {},
  ): void {
    const transferId = this.random.uuid();
    this.post(t, event, company.id, null, 'sent', amount, period, { ...extra, transferId });
    this.post(t, event, company.id, employeeId, 'received', amount, period, {
      ...extra,
      transferId,
    });
  }

  private monthlyAmount(employeeId: number, company: Company): number {
    const own = this.employeeMonthly[employeeId]!;
    return own >= 0 ? own : company.employeeMonthlyTokens;
  }

  private *employeesOf(company: Company): Generator<number> {
    const end = company.firstEmployee + company.employeeCount;
    for (let e = company.firstEmployee; e < end; e += 1) yield e;
  }

  // -------------------------------------------------------------------------------------------
  // The programme's events

  private openCompany(company: Company, periods: string[]): void {
    const t = company.createdAt;
    this.post(
      t,
      'monthly_tokens_added',
      company.id,
      null,
      'received',
      company.initToken,
      periods[0]!,
      {
        actorUserId: ADMIN_USER_ID,
        note: 'opening allocation',
      },
    );
    // The company admin hands out the first month by hand, an hour after the company opens.
    this.schedule(t + 60 * MINUTE, () => {
      const at = t + 60 * MINUTE;
      for (const e of this.employeesOf(company)) {
        const amount = this.monthlyAmount(e, company);
        if (!this.employeeActive[e] || amount <= 0 || amount > company.balance) continue;
        this.transfer(at, company, e, 'employee_issued', amount, company.tokenMonth, {
          actorUserId: company.adminUserId,
          note: 'first allocation',
        });
      }
    });
    this.scheduleMonth(company, periods, 0);
  }

  private scheduleMonth(company: Company, periods: string[], k: number): void {
    const start = periodStart(periods[k]!, company.resetDay, TIME_ZONE).getTime();
    const next =
      k + 1 < periods.length
        ? periodStart(periods[k + 1]!, company.resetDay, TIME_ZONE).getTime()
        : Infinity;
    const end = Math.min(next, this.until);
    if (next < this.until) this.schedule(next, () => this.resetCompany(company, periods, k + 1));

    if (this.random.chance(0.3)) {
      const amount = Math.max(100, Math.round((company.initToken * 0.1) / 100) * 100);
      const at = this.uniform(start + DAY, end);
      this.schedule(at, () =>
        this.post(at, 'company_issued', company.id, null, 'received', amount, company.tokenMonth, {
          actorUserId: ADMIN_USER_ID,
          note: 'top-up',
        }),
      );
    }
    if (this.random.chance(0.5)) {
      const at = this.uniform(start + DAY, end);
      this.schedule(at, () => this.bonus(at, company));
    }
    const mean = this.size.ordersPerEmployeeMonth;
    for (const e of this.employeesOf(company)) {
      if (!this.employeeActive[e]) continue;
      const orders = this.random.poisson(mean);
      for (let i = 0; i < orders; i += 1) {
        const at = this.uniform(start, end);
        this.schedule(at, () => this.placeOrder(at, company, e));
      }
      if (this.random.chance(0.002)) {
        const at = this.uniform(start, end);
        this.schedule(at, () => {
          this.employeeActive[e] = 0;
          this.employeeUpdatedAt[e] = at;
        });
      }
    }
  }

  /** A company admin's mid-month bonus to about a fifth of its active employees. */
  private bonus(t: number, company: Company): void {
    const items: [number, number][] = [];
    let total = 0;
    for (const e of this.employeesOf(company)) {
      if (!this.employeeActive[e] || !this.random.chance(0.2)) continue;
      const amount = this.random.int(4, 10) * 5;
      items.push([e, amount]);
      total += amount;
    }
    if (items.length === 0 || total > company.balance) return;
    for (const [e, amount] of items) {
      if (this.employeeTokenMonth[e] !== company.tokenMonth) continue;
      this.transfer(t, company, e, 'employee_issued', amount, company.tokenMonth, {
        actorUserId: company.adminUserId,
        note: 'bonus',
      });
    }
  }

  private placeOrder(t: number, company: Company, e: number): void {
    if (!this.employeeActive[e]) return;
    const terminalId = this.random.int(1, this.terminalCount);
    const merchantId = this.terminalMerchant[terminalId]!;
    const count = this.random.int(1, 3);
    const items: { name: string; quantity: number; unit_tokens: number }[] = [];
    for (let i = 0; i < count; i += 1) {
      items.push({
        name: this.random.pick(ITEMS),
        quantity: this.random.int(1, 2),
        unit_tokens: this.random.int(3, 15),
      });
    }
    const subtotal = items.reduce((sum, i) => sum + i.quantity * i.unit_tokens, 0);
    const balance = this.employeeBalance[e]!;
    if (balance < subtotal) return;
    this.orderId += 1;
    const order: PendingOrder = {
      id: this.orderId,
      companyId: company.id,
      employeeId: e,
      merchantId,
      terminalId,
      orderType: this.random.pick(ORDER_TYPES),
      items: JSON.stringify(items),
      firstItemTokens: items[0]!.quantity * items[0]!.unit_tokens,
      subtotal,
      refunded: 0,
      orderedAt: t,
      lastRefundedAt: null,
    };
    this.post(t, 'order_purchased', company.id, e, 'sent', subtotal, this.employeeTokenMonth[e]!, {
      orderId: order.id,
      terminalId,
      merchantId,
    });
    // The terminal's idempotency key and the answer the API stored under it.
    const orderNo = `ORD${pad(order.id, 10)}`;
    const body = JSON.stringify({
      data: {
        id: order.id,
        order_no: orderNo,
        status: 'ordered',
        subtotal,
        refunded_amount: 0,
        company_id: company.id,
        company_code: company.code,
        employee_id: staffNumber(e - company.firstEmployee + 1),
        merchant_id: merchantId,
        terminal_id: terminalId,
        order_type: order.orderType,
        items,
        ordered_at: iso(t),
        available_tokens: balance - subtotal,
      },
    });
    this.files.keys.add([
      terminalId,
      `bench-${order.id}`,
      crypto.createHash('sha256').update(body).digest('hex'),
      201,
      body,
      order.id,
      iso(t),
    ]);
    if (this.random.chance(0.05)) {
      this.pending.set(order.id, order);
      const at = t + this.random.int(5, 8 * 60) * MINUTE + this.random.int(0, MINUTE - 1);
      this.schedule(at, () => this.refund(at, order));
    } else {
      this.writeOrder(order);
    }
  }

  private refund(t: number, order: PendingOrder): void {
    const isPartial = this.random.chance(0.3) && order.firstItemTokens < order.subtotal;
    const amount = isPartial ? order.firstItemTokens : order.subtotal;
    this.post(
      t,
      'order_refunded',
      order.companyId,
      order.employeeId,
      'received',
      amount,
      this.employeeTokenMonth[order.employeeId]!,
      {
        orderId: order.id,
        refundReason: isPartial ? 'item_removed' : 'cancelled',
        terminalId: order.terminalId,
        merchantId: order.merchantId,
      },
    );
    order.refunded += amount;
    order.lastRefundedAt = t;
    this.pending.delete(order.id);
    this.writeOrder(order);
  }

  private writeOrder(o: PendingOrder): void {
    this.files.orders.add([
      o.id,
      `ORD${pad(o.id, 10)}`,
      o.companyId,
      o.employeeId,
      o.merchantId,
      o.terminalId,
      o.orderType,
      o.items,
      o.subtotal,
      o.refunded,
      iso(o.orderedAt),
      o.lastRefundedAt === null ? null : iso(o.lastRefundedAt),
    ]);
  }

  /** The monthly reset of DESIGN 3.5, as resetCompany writes it (ledger.service.ts). */
  private resetCompany(company: Company, periods: string[], k: number): void {
    const t = periodStart(periods[k]!, company.resetDay, TIME_ZONE).getTime();
    const period = periods[k]!;
    const previous = company.tokenMonth;
    let expiredEmployeeTokens = 0;
    for (const e of this.employeesOf(company)) {
      const balance = this.employeeBalance[e]!;
      if (balance > 0) {
        expiredEmployeeTokens += balance;
        this.post(
          t,
          'employee_expired',
          company.id,
          e,
          'sent',
          balance,
          this.employeeTokenMonth[e]!,
        );
      }
    }
    const expiredCompanyTokens = company.balance;
    if (company.balance > 0) {
      this.post(t, 'company_expired', company.id, null, 'sent', company.balance, previous);
    }
    this.post(t, 'monthly_tokens_added', company.id, null, 'received', company.initToken, period);
    company.tokenMonth = period;
    company.updatedAt = t;
    let renewed = 0;
    let wanted = 0;
    for (const e of this.employeesOf(company)) {
      if (!this.employeeActive[e]) continue;
      renewed += 1;
      wanted += this.monthlyAmount(e, company);
      this.employeeTokenMonth[e] = period;
      this.employeeUpdatedAt[e] = t;
    }
    let allocatedTokens = 0;
    if (wanted > 0 && wanted <= company.balance) {
      for (const e of this.employeesOf(company)) {
        const amount = this.monthlyAmount(e, company);
        if (!this.employeeActive[e] || amount <= 0) continue;
        this.transfer(t, company, e, 'monthly_tokens_reset', amount, period);
        allocatedTokens += amount;
      }
    }
    this.files.resets.add([
      company.id,
      period,
      previous,
      iso(t),
      iso(t),
      expiredEmployeeTokens,
      expiredCompanyTokens,
      company.initToken,
      renewed,
      allocatedTokens,
    ]);
    this.scheduleMonth(company, periods, k);
  }

  // -------------------------------------------------------------------------------------------
  // The run

  async run(): Promise<ProgrammeInfo> {
    const { size, random } = this;
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    const lastInstant = new Date(this.until - 1);
    // Merchants, terminals and users exist from the first of the month before the history starts.
    const setUp = Date.UTC(
      lastInstant.getUTCFullYear(),
      lastInstant.getUTCMonth() - size.months,
      1,
    );

    const merchants: ProgrammeInfo['merchants'] = [];
    let terminalId = 0;
    for (let m = 1; m <= size.merchants; m += 1) {
      const code = `M${pad(m, 3)}`;
      this.files.merchants.add([
        m,
        code,
        `Merchant ${pad(m, 3)}`,
        'active',
        iso(setUp),
        iso(setUp),
      ]);
      const terminals: { id: number; code: string }[] = [];
      for (let i = 1; i <= size.terminalsPerMerchant; i += 1) {
        terminalId += 1;
        const terminalCode = `T${pad(i, 3)}`;
        const key = terminalKeyFrom(terminalKey(this.seed, code, terminalCode));
        this.terminalMerchant[terminalId] = m;
        this.files.terminals.add([
          terminalId,
          m,
          terminalCode,
          `Till ${i}`,
          'active',
          key.hash,
          key.prefix,
          iso(setUp),
          iso(setUp),
          iso(setUp),
        ]);
        terminals.push({ id: terminalId, code: terminalCode });
      }
      merchants.push({ id: m, code, terminals });
    }

    // Companies and their employees: the first holds bigCompanyEmployees, the rest share the others.
    const others = size.companies - 1;
    const weights = Array.from({ length: others }, () => 0.3 + random.next());
    const weightSum = weights.reduce((a, b) => a + b, 0);
    const rest = size.employees - size.bigCompanyEmployees;
    const counts = [
      size.bigCompanyEmployees,
      ...weights.map((w) => Math.max(2, Math.floor((w / weightSum) * rest))),
    ];
    counts[counts.length - 1]! += size.employees - counts.reduce((a, b) => a + b, 0);
    let nextEmployee = 1;
    const periodsOf = new Map<number, string[]>();
    for (let c = 1; c <= size.companies; c += 1) {
      const resetDay = c === 1 ? 1 : random.int(1, 28);
      const current = periodAt(lastInstant, resetDay, TIME_ZONE).period;
      const periods = Array.from({ length: size.months }, (_, k) =>
        formatPeriod(addMonths(parsePeriod(current), k - size.months + 1)),
      );
      const createdAt = periodStart(periods[0]!, resetDay, TIME_ZONE).getTime();
      const employeeMonthlyTokens = random.int(15, 40) * 10;
      const company: Company = {
        id: c,
        code: `C${pad(c, 4)}`,
        name: c === 1 ? 'Big Group Holdings' : `Company ${pad(c, 4)} Ltd`,
        resetDay,
        initToken: 0,
        employeeMonthlyTokens,
        balance: 0,
        tokenMonth: periods[0]!,
        createdAt,
        updatedAt: createdAt,
        firstEmployee: nextEmployee,
        employeeCount: counts[c - 1]!,
        adminUserId: 2 + c,
      };
      let wanted = 0;
      for (const e of this.employeesOf(company)) {
        this.employeeCompany[e] = c;
        this.employeeActive[e] = 1;
        this.employeeTokenMonth[e] = periods[0]!;
        this.employeeUpdatedAt[e] = createdAt;
        if (random.chance(0.05)) this.employeeMonthly[e] = random.int(10, 50) * 10;
        wanted += this.monthlyAmount(e, company);
      }
      company.initToken = Math.ceil((wanted * 1.25) / 100) * 100;
      nextEmployee += company.employeeCount;
      this.companies.push(company);
      periodsOf.set(c, periods);
      this.schedule(createdAt, () => this.openCompany(company, periods));
    }

    // Time passes, one day at a time.
    const lastDay = Math.floor((this.until - 1) / DAY);
    const firstDay = Math.min(...this.buckets.keys());
    for (let day = firstDay; day <= lastDay; day += 1) {
      this.currentDay = day;
      this.heap = new EventHeap(this.buckets.get(day) ?? []);
      this.buckets.delete(day);
      while (this.heap.size > 0) this.heap.pop().run();
      await Promise.all(Object.values(this.files).map((f) => f.drain()));
    }
    // Refunds that would fall after `until` never happened.
    for (const order of this.pending.values()) this.writeOrder(order);
    this.pending.clear();

    // Final wallets, and the users who run the programme.
    for (const company of this.companies) {
      const nextResetAt = periodStart(nextPeriod(company.tokenMonth), company.resetDay, TIME_ZONE);
      this.files.companies.add([
        company.id,
        company.code,
        company.name,
        'active',
        company.resetDay,
        company.initToken,
        company.employeeMonthlyTokens,
        company.balance,
        company.tokenMonth,
        nextResetAt.toISOString(),
        iso(company.createdAt),
        iso(company.updatedAt),
      ]);
      for (const e of this.employeesOf(company)) {
        const n = e - company.firstEmployee + 1;
        const staff = staffNumber(n);
        const own = this.employeeMonthly[e]!;
        this.files.employees.add([
          e,
          company.id,
          staff,
          `${FIRST_NAMES[e % 10]} ${LAST_NAMES[Math.floor(e / 10) % 10]} ${n}`,
          `${staff.toLowerCase()}@${company.code.toLowerCase()}.bench.example`,
          this.employeeActive[e] ? 'active' : 'inactive',
          this.employeeBalance[e]!,
          own >= 0 ? own : null,
          this.employeeTokenMonth[e]!,
          iso(company.createdAt),
          iso(this.employeeUpdatedAt[e]!),
        ]);
      }
    }
    const user = (
      id: number,
      username: string,
      type: string,
      tenant: { companyId?: number; merchantId?: number; employeeId?: string } = {},
    ) =>
      this.files.users.add([
        id,
        username,
        `${username}@bench.example`,
        passwordHash,
        type,
        'active',
        tenant.companyId ?? null,
        tenant.merchantId ?? null,
        tenant.employeeId ?? null,
        iso(setUp),
        iso(setUp),
        iso(setUp),
      ]);
    user(ADMIN_USER_ID, 'bench.admin', 'admin');
    user(GROUP_HR_USER_ID, 'bench.hr', 'super_hr');
    for (const company of this.companies) {
      user(company.adminUserId, `ca.${company.code.toLowerCase()}`, 'company_admin', {
        companyId: company.id,
      });
    }
    let userId = 2 + this.companies.length;
    for (const m of merchants) {
      user((userId += 1), `ma.${m.code.toLowerCase()}`, 'merchant_admin', { merchantId: m.id });
    }
    for (const company of this.companies.slice(0, 10)) {
      user((userId += 1), `emp.${company.code.toLowerCase()}`, 'company_employee', {
        companyId: company.id,
        employeeId: staffNumber(1),
      });
    }

    await Promise.all(Object.values(this.files).map((f) => f.close()));
    const big = this.companies[0]!;
    return {
      seed: this.seed,
      until: iso(this.until),
      size,
      password: BENCH_PASSWORD,
      admin: 'bench.admin',
      groupHr: 'bench.hr',
      bigCompany: {
        id: big.id,
        code: big.code,
        admin: `ca.${big.code.toLowerCase()}`,
        employees: big.employeeCount,
      },
      merchants,
      ledgerRows: this.ledgerId,
      orders: this.orderId,
      generatedAt: new Date().toISOString(),
    };
  }
}

const staffNumber = (n: number) => `E${pad(n, 6)}`;

const LOAD_ORDER = [
  'users',
  'merchants',
  'terminals',
  'companies',
  'employees',
  'orders',
  'keys',
  'ledger',
  'resets',
] as const;

/** Tables whose secondary indexes are dropped for the load and built once afterwards. */
const REINDEXED_TABLES = ['employees', 'orders', 'terminal_idempotency_keys', 'token_transactions'];

/**
 * Generates the programme and loads it into `url`, which must be a freshly migrated, empty
 * database (createFreshDatabase): the load truncates the programme's tables.
 */
export async function generateProgramme(
  url: string,
  options: { size: ProgrammeSize; seed: number; until: Date; log?: (message: string) => void },
): Promise<GenerationReport> {
  const log = options.log ?? (() => undefined);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-programme-'));
  const started = performance.now();
  try {
    const simulation = new Simulation(options.size, options.seed, options.until, dir);
    const info = await simulation.run();
    const simulated = performance.now();
    const rows = Object.fromEntries(Object.values(simulation.files).map((f) => [f.table, f.rows]));
    log(
      `simulated ${info.ledgerRows.toLocaleString('en')} ledger rows and ${info.orders.toLocaleString('en')} orders in ${seconds(simulated - started)} s`,
    );

    let copied = 0;
    let indexed = 0;
    await withClient(url, async (client) => {
      await client.query('BEGIN');
      // Triggers off for this transaction only: the rows already chain (see the file comment).
      await client.query('SET LOCAL session_replication_role = replica');
      await client.query("SET LOCAL maintenance_work_mem = '1GB'");
      await client.query('SET LOCAL statement_timeout = 0');
      // Truncated in this transaction, so COPY FREEZE may write the rows frozen and all-visible.
      await client.query(
        `TRUNCATE ${LOAD_ORDER.map((t) => simulation.files[t].table).join(', ')} CASCADE`,
      );
      const { rows: indexes } = await client.query<{ name: string; definition: string }>(
        `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
           FROM pg_index i
          WHERE i.indrelid = ANY ($1::regclass[])
            AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
        [REINDEXED_TABLES],
      );
      for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
      for (const key of LOAD_ORDER) {
        const file = simulation.files[key];
        const t0 = performance.now();
        await pipeline(
          fs.createReadStream(file.file, { highWaterMark: 1 << 20 }),
          client.query(
            copyFrom(`COPY ${file.table} (${file.columns.join(', ')}) FROM STDIN WITH (FREEZE)`),
          ),
        );
        log(
          `  COPY ${file.table}: ${file.rows.toLocaleString('en')} rows in ${seconds(performance.now() - t0)} s`,
        );
        fs.rmSync(file.file);
      }
      copied = performance.now();
      for (const index of indexes) {
        const t0 = performance.now();
        await client.query(index.definition);
        log(`  ${index.name}: ${seconds(performance.now() - t0)} s`);
      }
      // The COPY fired no trigger, so the ledger rollups (migration 0010) are recomputed.
      const t0 = performance.now();
      await client.query('SELECT rebuild_ledger_rollups()');
      log(`  rebuild_ledger_rollups(): ${seconds(performance.now() - t0)} s`);
      // Nor the companies' employee counters (migration 0030).
      await client.query('SELECT refresh_company_employee_counts()');
      // Nor what each employee spent by quarter-hour (migration 0036, decision 0080), which the
      // order statement keeps for the daily limit: from the orders, as the migration fills it.
      await client.query('TRUNCATE spending_quarter_hours');
      await client.query(
        `INSERT INTO spending_quarter_hours (employee_id, bucket, spent)
         SELECT employee_id, date_bin('15 minutes', ordered_at, timestamptz '2000-01-01 00:00:00+00'),
                sum(subtotal - refunded_amount)
           FROM orders GROUP BY 1, 2`,
      );
      for (const table of [
        'users',
        'companies',
        'employees',
        'merchants',
        'terminals',
        'orders',
        'token_transactions',
      ]) {
        await client.query(
          `SELECT setval(pg_get_serial_sequence('${table}', 'id'), coalesce(max(id), 0) + 1, false) FROM ${table}`,
        );
      }
      await client.query(
        `SELECT setval('order_no_seq', coalesce(max(id), 0) + 1, false) FROM orders`,
      );
      await client.query(
        `SELECT setval('token_transactions_seq', coalesce(max(seq), 0) + 1, false) FROM token_transactions`,
      );
      await client.query('COMMIT');
      indexed = performance.now();
    });
    // Statistics for the planner (and a visibility map check; COPY FREEZE has set it already).
    await withClient(url, (client) => client.query('VACUUM (ANALYZE)'));
    const vacuumed = performance.now();
    return {
      info,
      rows,
      seconds: {
        simulate: seconds(simulated - started),
        copy: seconds(copied - simulated),
        indexes: seconds(indexed - copied),
        vacuum: seconds(vacuumed - indexed),
        total: seconds(vacuumed - started),
      },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;
