// The demo programme of a first start (DESIGN 5): companies, employees, merchants, terminals and a
// few months of history, written through the ledger's own services so it obeys every invariant.
import type { RefundReason } from '@app/contract';
import type { Config } from '../config';
import type { Tx } from '../db/client';
import { isAppError } from '../lib/app-error';
import { ManualClock, type Clock } from '../lib/clock';
import { addMonths, formatPeriod, zonedMidnight, zonedParts } from '../lib/periods';
import { createCompanyIn } from '../modules/companies';
import { createEmployeeIn } from '../modules/employees';
import { findCompaniesDueForReset } from '../modules/ledger';
import type { TerminalIdentity } from '../lib/principal';
import { distributeTokens, issueCompanyTokens, resetCompany } from '../modules/ledger';
import { createMerchantIn } from '../modules/merchants';
import { placeTerminalOrderIn, refundTerminalOrderIn } from '../modules/orders';
import { createTerminalIn } from '../modules/terminals';

/**
 * The key of terminal T1 of merchant SHOP, printed on first start so a newcomer can call the
 * terminal API at once. Only its hash is stored; demo data is for trying the product only.
 */
export const DEMO_TERMINAL_KEY = 'tk_demo_SHOP_T1_try-the-terminal-api';

export interface DemoProgramme {
  /** ACME: the company of the demo company admin and employee (staff number E0001). */
  companyId: number;
  /** SHOP: the merchant of the demo merchant users. */
  merchantId: number;
  terminalKey: string;
}

export interface DemoProgrammeDeps {
  config: Pick<Config, 'APP_TIMEZONE'>;
  /** "Now": the history runs over the three months before it. */
  clock: Clock;
}

const COMPANIES = [
  { code: 'ACME', name: 'Acme Corporation', resetDay: 1, initToken: 20_000, monthly: 300 },
  { code: 'GLOBEX', name: 'Globex Trading', resetDay: 15, initToken: 12_000, monthly: 200 },
  // Reset day 31 (clamped in short months); its admin hands out tokens by hand instead.
  { code: 'INITECH', name: 'Initech Services', resetDay: 31, initToken: 6_000, monthly: 0 },
] as const;

const NAMES = [
  'Ava Chen',
  'Liam Wong',
  'Mia Zhang',
  'Noah Li',
  'Emma Liu',
  'Lucas Huang',
  'Chloe Zhao',
  'Ethan Wu',
  'Grace Lin',
  'Oliver Xu',
];

const MENU = [
  { name: 'Rice bowl', unit_tokens: 35 },
  { name: 'Noodle soup', unit_tokens: 30 },
  { name: 'Sandwich', unit_tokens: 25 },
  { name: 'Salad', unit_tokens: 28 },
  { name: 'Coffee', unit_tokens: 12 },
  { name: 'Tea', unit_tokens: 8 },
  { name: 'Fruit cup', unit_tokens: 10 },
];

/** A small deterministic generator: the same demo on every first start. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

/** Runs `step` in a savepoint, so a refused step (a short balance) leaves nothing behind. */
async function attempt(tx: Tx, step: (sp: Tx) => Promise<unknown>): Promise<boolean> {
  try {
    await tx.transaction(async (sp) => {
      await step(sp);
    });
    return true;
  } catch (error) {
    if (isAppError(error)) return false;
    throw error;
  }
}

/**
 * Builds the demo programme inside `tx`: three companies (ACME, GLOBEX, INITECH) of ten employees,
 * two merchants (SHOP, CAFE) of two terminals, then three months of top-ups, distributions,
 * orders, refunds and monthly resets, day by day on a simulated clock that ends at `deps.clock`.
 */
export async function createDemoProgramme(tx: Tx, deps: DemoProgrammeDeps): Promise<DemoProgramme> {
  const timeZone = deps.config.APP_TIMEZONE;
  const end = deps.clock.now();
  const local = zonedParts(end, timeZone);
  const first = addMonths({ year: local.year, month: local.month }, -3);
  const clock = new ManualClock(zonedMidnight(first.year, first.month, 2, timeZone));
  const services = { clock, config: deps.config };
  const rng = random(2026);
  const at = (dayStart: Date, hour: number, minute = 0) =>
    new Date(dayStart.getTime() + (hour * 60 + minute) * 60_000);

  // Tenants.
  clock.set(at(clock.now(), 9));
  const companies = [];
  for (const c of COMPANIES) {
    const company = await createCompanyIn(tx, services, null, {
      code: c.code,
      name: c.name,
      status: 'active',
      monthly_reset_day: c.resetDay,
      init_token: c.initToken,
      employee_monthly_tokens: c.monthly,
    });
    const scope = { kind: 'company', companyId: company.id } as const;
    const staff = [];
    for (const [i, name] of NAMES.entries()) {
      const number = `E${String(i + 1).padStart(4, '0')}`;
      staff.push(
        await createEmployeeIn(tx, services, scope, {
          employee_id: number,
          name,
          email: `${name.toLowerCase().replace(' ', '.')}@${c.code.toLowerCase()}.example`,
          status: 'active',
        }),
      );
    }
    companies.push({ ...c, id: company.id, staff });
  }

  const terminals: TerminalIdentity[] = [];
  let shopId = 0;
  for (const m of [
    { code: 'SHOP', name: 'Campus Shop' },
    { code: 'CAFE', name: 'Corner Cafe' },
  ]) {
    const merchant = await createMerchantIn(tx, services, { ...m, status: 'active' });
    if (m.code === 'SHOP') shopId = merchant.id;
    for (const t of [
      { code: 'T1', name: 'Counter 1' },
      { code: 'T2', name: 'Counter 2' },
    ]) {
      const terminal = await createTerminalIn(
        tx,
        services,
        { merchant_id: merchant.id, code: `${m.code}${t.code}`, name: t.name, status: 'active' },
        m.code === 'SHOP' && t.code === 'T1' ? DEMO_TERMINAL_KEY : undefined,
      );
      terminals.push({ id: terminal.id, merchantId: merchant.id });
    }
  }

  // Opening top-ups and the first hand-out.
  for (const c of companies) {
    await issueCompanyTokens(tx, {
      companyId: c.id,
      amount: 5_000,
      note: 'Programme launch',
      actorUserId: null,
      at: clock.now(),
    });
    await distributeTokens(tx, {
      companyId: c.id,
      items: c.staff.map((e) => ({ employee_id: e.id, amount: 400 })),
      note: 'Welcome tokens',
      actorUserId: null,
      at: clock.now(),
    });
  }

  // Day by day: resets at midnight, lunch orders, a few refunds.
  const placed: { id: number; terminal: TerminalIdentity; subtotal: number; refunded: boolean }[] =
    [];
  let sequence = 0;
  const runDueResets = async () => {
    for (const companyId of await findCompaniesDueForReset(tx, clock.now(), 100)) {
      while (await resetCompany(tx, { companyId, at: clock.now(), timeZone })) {
        // catch up until the company's month is current
      }
    }
  };
  for (let day = zonedMidnight(first.year, first.month, 3, timeZone); day < end;) {
    clock.set(day);
    await runDueResets();
    const period = formatPeriod(zonedParts(day, timeZone));
    // INITECH hands out tokens by hand on the first working day of its month.
    const initech = companies[2]!;
    if (zonedParts(day, timeZone).day === 3) {
      clock.set(at(day, 10));
      await attempt(tx, (sp) =>
        distributeTokens(sp, {
          companyId: initech.id,
          items: initech.staff.map((e) => ({ employee_id: e.id, amount: 300 })),
          note: `Meal allowance ${period}`,
          actorUserId: null,
          at: clock.now(),
        }),
      );
    }
    for (let n = 2 + rng.int(3); n > 0; n -= 1) {
      const company = rng.pick(companies);
      const employee = rng.pick(company.staff);
      const terminal = rng.pick(terminals);
      const items = Array.from({ length: 1 + rng.int(2) }, () => ({
        ...rng.pick(MENU),
        quantity: 1 + rng.int(2),
      }));
      clock.set(at(day, 11 + rng.int(3), rng.int(60)));
      sequence += 1;
      await attempt(tx, async (sp) => {
        const answer = await placeTerminalOrderIn(
          sp,
          services,
          terminal,
          `demo-order-${sequence}`,
          {
            company_code: company.code,
            employee_id: employee.employee_id,
            order_type: rng.next() < 0.7 ? 'dine_in' : 'takeaway',
            items,
          },
        );
        const order = (answer.body as { data: { id: number; subtotal: number } }).data;
        placed.push({ id: order.id, terminal, subtotal: order.subtotal, refunded: false });
      });
    }
    // Now and then a refund of a recent order: cancelled, rejected, or an item removed.
    if (placed.length > 0 && rng.next() < 0.25) {
      const order = placed[placed.length - 1 - rng.int(Math.min(5, placed.length))]!;
      if (!order.refunded) {
        const reason = rng.pick<RefundReason>(['cancelled', 'rejected', 'item_removed']);
        clock.set(at(day, 15));
        sequence += 1;
        order.refunded = await attempt(tx, (sp) =>
          refundTerminalOrderIn(sp, services, order.terminal, `demo-refund-${sequence}`, order.id, {
            reason,
            ...(reason === 'item_removed'
              ? { amount: Math.max(1, Math.floor(order.subtotal / 3)) }
              : {}),
          }),
        );
      }
    }
    const next = new Date(day.getTime() + 36 * 3_600_000);
    const p = zonedParts(next, timeZone);
    day = zonedMidnight(p.year, p.month, p.day, timeZone);
  }

  // Whatever is due by now (a reset falling today before this start) is applied too.
  clock.set(end);
  await runDueResets();
  return { companyId: companies[0]!.id, merchantId: shopId, terminalKey: DEMO_TERMINAL_KEY };
}
