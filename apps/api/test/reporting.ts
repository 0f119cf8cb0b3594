// Factories and independent arithmetic for the reporting tests (dashboard, reports, exports):
// a small programme built through the real ledger services, and the totals recomputed in plain
// JavaScript from the raw token_transactions rows, so the server's SQL is checked against
// something that shares none of it.
import { sql } from 'drizzle-orm';
import type { Company, DashboardTotals, Employee, EmployeeReportRow } from '@app/contract';
import { queryRows, type Executor } from '../src/db/client';
import { toInt } from '../src/lib/numbers';
import { createEmployee, setEmployeeStatus } from '../src/modules/employees';
import { runMonthlyResets } from '../src/modules/jobs';
import { distributeToEmployees, issueToCompany } from '../src/modules/tokens';
import type { TestApp } from './app';
import { newCompany, newTerminal, order, refund, type TestTerminal } from './ledger';

export interface LedgerRow {
  id: number;
  occurredAt: Date;
  event: string;
  companyId: number;
  employeeId: number | null;
  direction: 'received' | 'sent';
  amount: number;
  balanceBefore: number;
  balanceAfter: number;
  period: string;
  merchantId: number | null;
}

/** Every ledger row, in write order, straight from the table. */
export async function ledgerRows(executor: Executor): Promise<LedgerRow[]> {
  const rows = await queryRows<Record<string, unknown>>(
    executor,
    sql`SELECT id, occurred_at, event, company_id, employee_id, direction, amount,
               balance_before, balance_after, period, merchant_id
          FROM token_transactions ORDER BY id`,
  );
  return rows.map((r) => ({
    id: toInt(r.id),
    occurredAt: new Date(r.occurred_at as string | Date),
    event: r.event as string,
    companyId: toInt(r.company_id),
    employeeId: r.employee_id === null ? null : toInt(r.employee_id),
    direction: r.direction as 'received' | 'sent',
    amount: toInt(r.amount),
    balanceBefore: toInt(r.balance_before),
    balanceAfter: toInt(r.balance_after),
    period: r.period as string,
    merchantId: r.merchant_id === null ? null : toInt(r.merchant_id),
  }));
}

const sum = (rows: LedgerRow[], events: string[]) =>
  rows.filter((r) => events.includes(r.event)).reduce((s, r) => s + r.amount, 0);

const walletKey = (r: LedgerRow) =>
  r.employeeId === null ? `c${r.companyId}` : `e${r.employeeId}`;

/**
 * The tokens of `month` each wallet still holds: a wallet's rows carry its token month, so when
 * its last row of all is of `month`, its balance after that row is held in the month.
 */
function heldInMonth(all: LedgerRow[], month: string, wallet: (r: LedgerRow) => boolean): number {
  const last = new Map<string, LedgerRow>();
  for (const r of all) if (wallet(r)) last.set(walletKey(r), r);
  return [...last.values()]
    .filter((r) => r.period === month)
    .reduce((s, r) => s + r.balanceAfter, 0);
}

/**
 * DESIGN 4's five totals for a token month, from raw rows: `rows` narrows which rows count (one
 * company, say), the unused tokens being what expired in the month plus what is still held in it.
 */
export function expectedTotals(
  all: LedgerRow[],
  month: string,
  include: (r: LedgerRow) => boolean = () => true,
): DashboardTotals {
  const rows = all.filter((r) => r.period === month && include(r));
  const purchased = sum(rows, ['order_purchased']);
  const refunded = sum(rows, ['order_refunded']);
  return {
    tokens_from_admin: sum(rows, ['company_issued', 'monthly_tokens_added']),
    distributed_to_employees: sum(
      rows.filter((r) => r.employeeId !== null),
      ['employee_issued', 'monthly_tokens_reset'],
    ),
    consumed_by_employees: purchased - refunded,
    company_unused:
      sum(rows, ['company_expired']) +
      heldInMonth(all, month, (r) => r.employeeId === null && include(r)),
    employee_unused:
      sum(rows, ['employee_expired']) +
      heldInMonth(all, month, (r) => r.employeeId !== null && include(r)),
    purchased,
    refunded,
  };
}

/** One employee's report row for a month, from raw rows. */
export function expectedEmployeeRow(
  all: LedgerRow[],
  employeeId: number,
  month: string,
): Pick<
  EmployeeReportRow,
  'received' | 'purchased' | 'refunded' | 'consumed' | 'expired' | 'unused' | 'available_tokens'
> {
  const own = all.filter((r) => r.employeeId === employeeId);
  const rows = own.filter((r) => r.period === month);
  const purchased = sum(rows, ['order_purchased']);
  const refunded = sum(rows, ['order_refunded']);
  const expired = sum(rows, ['employee_expired']);
  const last = own[own.length - 1];
  return {
    received: sum(rows, ['employee_issued', 'monthly_tokens_reset']),
    purchased,
    refunded,
    consumed: purchased - refunded,
    expired,
    unused: expired + (last?.period === month ? last.balanceAfter : 0),
    available_tokens: last?.balanceAfter ?? 0,
  };
}

/** The month's flows per local day, from raw rows (expiries left out, as charts leave them). */
export function expectedDaily(
  all: LedgerRow[],
  month: string,
  timeZone: string,
  include: (r: LedgerRow) => boolean = () => true,
  /** `calendar`: the rows written in the calendar month, of any token month (the chart's). */
  by: 'period' | 'calendar' = 'period',
): Map<string, { tokens_from_admin: number; distributed: number; consumed: number }> {
  const day = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const days = new Map<string, LedgerRow[]>();
  for (const r of all) {
    const key = day.format(r.occurredAt);
    const inMonth = by === 'period' ? r.period === month : key.startsWith(`${month}-`);
    if (!inMonth || !include(r) || r.event.endsWith('_expired')) continue;
    days.set(key, [...(days.get(key) ?? []), r]);
  }
  return new Map(
    [...days].map(([key, rows]) => [
      key,
      {
        tokens_from_admin: sum(rows, ['company_issued', 'monthly_tokens_added']),
        distributed: sum(
          rows.filter((r) => r.employeeId !== null),
          ['employee_issued', 'monthly_tokens_reset'],
        ),
        consumed: sum(rows, ['order_purchased']) - sum(rows, ['order_refunded']),
      },
    ]),
  );
}

export interface Programme {
  a: Company;
  b: Company;
  a1: Employee;
  a2: Employee;
  b1: Employee;
  b2: Employee;
  /** Merchant 1 has two terminals, merchant 2 one. */
  t1: TestTerminal;
  t1b: TestTerminal;
  t2: TestTerminal;
  orders: Record<'o1' | 'o2' | 'o3' | 'o4' | 'o5' | 'o6', number>;
}

/**
 * Two companies over two token months (reset day 1), built through the services as the API would:
 * allocations, top-ups, distributions, orders at three terminals of two merchants, a partial and
 * full refunds, a monthly reset, a refund after the reset of an order of the month before, and an
 * employee left behind in the old month (inactive at the reset) who is refunded afterwards.
 *
 * Times are chosen for APP_TIMEZONE Asia/Shanghai (UTC+8): some rows fall on a different day
 * there than in UTC, and the reset is at 00:00 of 1 February there (16:00 UTC on 31 January).
 */
export async function buildProgramme(t: TestApp, names: { a1?: string } = {}): Promise<Programme> {
  const deps = t.app.deps;
  t.clock.set('2026-01-15T08:00:00Z');
  const a = await newCompany(deps, { initToken: 1000 });
  const b = await newCompany(deps, { initToken: 500 });
  const staff = (companyId: number, monthly: number | null, name?: string) =>
    createEmployee(
      deps,
      { kind: 'company', companyId },
      {
        employee_id: `E${Math.random().toString(36).slice(2, 10)}`,
        status: 'active',
        monthly_tokens: monthly,
        ...(name !== undefined ? { name } : {}),
      },
    );
  const a1 = await staff(a.id, 50, names.a1 ?? 'Alice');
  const a2 = await staff(a.id, null, 'Bob');
  const b1 = await staff(b.id, null, 'Chen');
  const b2 = await staff(b.id, null, 'Dana');
  const t1 = await newTerminal(deps);
  const t1b = await newTerminal(deps, t1.merchantId);
  const t2 = await newTerminal(deps);

  await issueToCompany(deps, null, { company_id: a.id, amount: 300 });
  await issueToCompany(deps, null, { company_id: b.id, amount: 200 });
  const asAdminOf = (companyId: number) => ({ kind: 'company' as const, companyId });
  await distributeToEmployees(deps, asAdminOf(a.id), null, {
    items: [
      { employee_id: a1.id, amount: 200 },
      { employee_id: a2.id, amount: 100 },
    ],
  });
  await distributeToEmployees(deps, asAdminOf(b.id), null, {
    items: [
      { employee_id: b1.id, amount: 150 },
      { employee_id: b2.id, amount: 40 },
    ],
  });

  // 16 January, 03:00 UTC (11:00 in Shanghai).
  t.clock.set('2026-01-16T03:00:00Z');
  const o1 = (await order(deps, t1, a, a1, 40)).id;
  const o2 = (await order(deps, t2, a, a1, 30)).id;
  const o3 = (await order(deps, t1b, a, a2, 20)).id;
  const o4 = (await order(deps, t1, b, b1, 60)).id;
  const o5 = (await order(deps, t2, b, b2, 10)).id;

  // 20 January, 17:00 UTC: already 21 January in Shanghai.
  t.clock.set('2026-01-20T17:00:00Z');
  await refund(deps, t1, o1, 'item_removed', 10);
  await refund(deps, t1b, o3, 'cancelled');
  await setEmployeeStatus(deps, asAdminOf(b.id), b2.id, 'inactive');

  // The reset: 1 February 00:00 in Shanghai.
  t.clock.set('2026-01-31T16:00:00Z');
  await runMonthlyResets(deps);

  t.clock.set('2026-02-03T02:00:00Z');
  await distributeToEmployees(deps, asAdminOf(a.id), null, {
    items: [{ employee_id: a2.id, amount: 80 }],
  });
  const o6 = (await order(deps, t1, a, a1, 25)).id;
  // January orders refunded in February: a1 is in February's month, b2 was left in January's.
  await refund(deps, t2, o2, 'rejected');
  await refund(deps, t2, o5, 'cancelled');

  t.clock.set('2026-02-10T04:00:00Z');
  return { a, b, a1, a2, b1, b2, t1, t1b, t2, orders: { o1, o2, o3, o4, o5, o6 } };
}
