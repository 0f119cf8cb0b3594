/**
 * Scenario 12 (issue 42 item 7): terminal orders with a full rule set in force beside the same
 * orders without rules, in one run on one database. The companies other than the big one (the
 * reset's) are split in two alike halves by position: one half gets the rules (every field set,
 * through the API), the other none; each half's payees are sampled the same way. Both variants
 * send the same mix of orders (terminals, amounts, payees with an exception): with the rules about
 * 5 % of them are declined, by the order limit, by the merchant's category and by a daily limit,
 * and the rest are placed; without rules all are placed. A decline is an answer (a 409 with its
 * code), counted by code, not a failure; any other answer is one. The variants run in ABBA order
 * (lib/abba.ts) at each concurrency, and the ratio is answered orders a second with rules over
 * without.
 */
import crypto from 'node:crypto';
import { SPENDING_RULE_CODES } from '@app/contract';
import { runAbba, type AbbaComparison } from '../abba';
import { countOrders, withClient } from '../database';
import { round } from '../stats';
import type { Session } from '../http';
import { runLoad, type LoadResult } from '../load';
import { terminalKey, TIME_ZONE, type ProgrammeInfo } from '../programme';
import { ELIGIBLE_BALANCE, SUBTOTAL, type Payee } from './orders';

/** The rule set in force for the ruled half: every field set. */
export function benchRules(today: string) {
  return {
    effective_from: today,
    daily_limit: 1_000,
    order_limit: 10,
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    // Two windows that leave only the day's last minute out.
    hours: [
      { from: '00:00', to: '11:30' },
      { from: '11:30', to: '23:59' },
    ],
    closed_on_holidays: true,
    merchant_categories: ['restaurant', 'canteen', 'cafe', 'bakery', 'other'],
    partial_payment: true,
  };
}

/** The daily limit of the payees with an exception: one order of 2, a part of the next, then none. */
const CAPPED_DAILY_LIMIT = 3;
/** Per 200 orders: over the order limit, at the excluded merchant, by a capped payee. */
const MIX = { overLimit: 4, excludedMerchant: 3, capped: 3, of: 200 };
const OVER_LIMIT_SUBTOTAL = 12;
/** At most this many payees per half. */
const PAYEES_PER_HALF = 10_000;
/**
 * Payees per half with the capped exception: few, so that each soon reaches its limit and the
 * share declined stays about the same from run to run (each gets about one order in 2,000).
 */
const CAPPED_PAYEES = 20;

export interface OrderRulesScenario {
  rules: ReturnType<typeof benchRules>;
  companies: { ruled: number; unruled: number };
  payees: { perHalf: number; capped: number };
  mix: typeof MIX;
  /** At each concurrency: a = without rules, b = with rules. */
  runs: AbbaComparison[];
  /** Orders sent when no payee of their half had the balance left: 0, or a run too long. */
  walletsSpent: number;
  ordersCreated: number;
  loadAverage: { before: number[]; after: number[] };
}

export async function runOrderRulesScenario(options: {
  baseUrl: string;
  databaseUrl: string;
  info: ProgrammeInfo;
  admin: Session;
  concurrencies: number[];
  seconds: number;
  warmUpSeconds: number;
  rounds: number;
  apiPid?: number;
  loadAverage: () => number[];
  log: (message: string) => void;
}): Promise<OrderRulesScenario> {
  const { info, databaseUrl, admin, log } = options;
  const loadBefore = options.loadAverage();
  const today = new Date().toISOString().slice(0, 10); // the programme's time zone is UTC
  if (TIME_ZONE !== 'UTC') throw new Error('the rules scenario takes the programme day as UTC');
  const rules = benchRules(today);

  const { halves, excepted, ordersBefore } = await withClient(databaseUrl, async (c) => {
    const companies = await c.query<{ id: string }>(
      `SELECT id FROM companies
        WHERE status = 'active' AND id <> $1 AND NOT pay_code_required ORDER BY id`,
      [info.bigCompany.id],
    );
    const ids = companies.rows.map((r) => r.id);
    const split = {
      unruled: ids.filter((_, i) => i % 2 === 0),
      ruled: ids.filter((_, i) => i % 2 === 1),
    };
    const payeesOf = async (companyIds: string[]) =>
      (
        await c.query<Payee & { available_tokens: number }>(
          `SELECT e.id, co.code AS company_code, e.employee_id, e.available_tokens FROM employees e
             JOIN companies co ON co.id = e.company_id
            WHERE e.company_id = ANY ($1::bigint[]) AND e.status = 'active'
              AND e.deleted_at IS NULL AND e.available_tokens >= ${ELIGIBLE_BALANCE}
            ORDER BY md5(e.id::text) LIMIT ${PAYEES_PER_HALF}`,
          [companyIds],
        )
      ).rows;
    // The exceptions an earlier run gave, to be removed: this run gives its own.
    const excepted = await c.query<{ id: string }>(
      `SELECT x.employee_id AS id FROM spending_exceptions x
         JOIN employees e ON e.id = x.employee_id WHERE e.company_id = ANY ($1::bigint[])`,
      [ids],
    );
    return {
      excepted: excepted.rows.map((r) => r.id),
      halves: {
        ruled: { companies: split.ruled, payees: await payeesOf(split.ruled) },
        unruled: { companies: split.unruled, payees: await payeesOf(split.unruled) },
      },
      ordersBefore: await countOrders(c),
    };
  });
  const perHalf = Math.min(halves.ruled.payees.length, halves.unruled.payees.length);
  if (perHalf < 10) throw new Error(`Too few payees for the rules scenario (${perHalf} a half)`);
  const capped = Math.min(CAPPED_PAYEES, Math.max(1, Math.floor(perHalf / 10)));
  for (const half of [halves.ruled, halves.unruled]) half.payees = half.payees.slice(0, perHalf);

  // The rules, through the API, as a company admin would set them: the version in force from
  // today for the ruled half, a holiday calendar without today, the merchants' categories (the
  // first merchant a grocery, which the rules exclude), and the capped payees' exception.
  log(
    `  rules for ${halves.ruled.companies.length} companies, none for ${halves.unruled.companies.length}; ${perHalf} payees a half, ${capped} capped`,
  );
  for (const id of halves.ruled.companies) {
    await admin.send('PUT', `/api/v1/companies/${id}/spending-rules`, rules);
  }
  const year = today.slice(0, 4);
  await admin.send('PUT', '/api/v1/sys/holidays', {
    year: Number(year),
    days: [
      { date: `${year}-01-01`, name: 'New Year' },
      { date: `${year}-05-01`, name: 'Labour Day' },
      { date: `${year}-12-25`, name: 'Christmas' },
    ].filter((d) => d.date !== today),
  });
  const categories = ['grocery', ...rules.merchant_categories];
  for (const [i, m] of info.merchants.entries()) {
    const { data } = await admin.get<{ data: { name: string; status: string } }>(
      `/api/v1/merchants/${m.id}`,
    );
    await admin.send('PUT', `/api/v1/merchants/${m.id}`, {
      name: data.name,
      status: data.status,
      category: i === 0 ? 'grocery' : categories[1 + ((i - 1) % (categories.length - 1))],
    });
  }
  for (const id of excepted) {
    await admin.send('DELETE', `/api/v1/employees/${id}/spending-exception`);
  }
  for (const payee of halves.ruled.payees.slice(0, capped)) {
    await admin.send('PUT', `/api/v1/employees/${payee.id}/spending-exception`, {
      daily_limit: CAPPED_DAILY_LIMIT,
    });
  }

  const keysOf = (merchants: ProgrammeInfo['merchants']) =>
    merchants.flatMap((m) =>
      m.terminals.map((t) => `Bearer ${terminalKey(info.seed, m.code, t.code)}`),
    );
  const excludedKeys = keysOf(info.merchants.slice(0, 1));
  const allowedKeys = keysOf(info.merchants.slice(1));
  const run = crypto.randomBytes(4).toString('hex');
  let sequence = 0;
  /** Orders sent when no payee of their half had the balance left (each then refused). */
  let walletsSpent = 0;
  const coffee = [{ name: 'Coffee', quantity: 1, unit_tokens: SUBTOTAL }];
  const lunch = [{ name: 'Lunch', quantity: 1, unit_tokens: OVER_LIMIT_SUBTOTAL }];

  /**
   * The orders of one half: the same mix for both, by the request's number. The capped payees'
   * orders go, without rules, to the other payees in turn: there a payee has no limit, and a few
   * wallets taking one order in seventy would be emptied.
   *
   * Each half counts what its payees can still pay, from their balances at the start less every
   * order sent them (a decline counted as paid): a payee who could not pay is passed for the next
   * one, so that no order is refused for its balance. On a small programme a fast run sent each
   * payee more than its balance (a few dozen 409 INSUFFICIENT_TOKENS in the bench smoke test, on a
   * quiet machine only). The capped payees are not counted: their exception declines all but 3
   * tokens a day. Were every wallet of a half spent, the order goes as before and is counted.
   */
  const load = (payees: (Payee & { available_tokens: number })[], isRuled: boolean) => {
    const left = payees.map((p) => Number(p.available_tokens));
    const payable = (from: number, to: number, cost: number): number => {
      const count = to - from;
      for (let step = 0; step < count; step += 1) {
        const i = from + ((step + (sequence % count)) % count);
        if (left[i]! >= cost) return i;
      }
      walletsSpent += 1;
      return from + (sequence % count);
    };
    return (connections: number, seconds: number): Promise<LoadResult> =>
      runLoad({
        url: `${options.baseUrl}/api/v1/orders`,
        method: 'POST',
        connections,
        seconds,
        expectedStatus: 201,
        // Both halves read every answer's body, so that they pay the same; only the ruled half
        // is sent declines, and any other refusal in either is a failure.
        expectedRefusals: { status: 409, codes: SPENDING_RULE_CODES },
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          sequence += 1;
          const kind = (sequence * 7919) % MIX.of;
          const overLimit = kind < MIX.overLimit;
          const excluded = !overLimit && kind < MIX.overLimit + MIX.excludedMerchant;
          const isCapped =
            !overLimit && !excluded && kind < MIX.overLimit + MIX.excludedMerchant + MIX.capped;
          const cost = overLimit ? OVER_LIMIT_SUBTOTAL : SUBTOTAL;
          const at = isCapped && isRuled ? sequence % capped : payable(capped, payees.length, cost);
          if (!(isCapped && isRuled)) left[at]! -= cost;
          const who = payees[at]!;
          const keys = excluded ? excludedKeys : allowedKeys;
          return {
            ...request,
            headers: {
              ...request.headers,
              authorization: keys[sequence % keys.length]!,
              'idempotency-key': `rules-${run}-${sequence}`,
            },
            body: JSON.stringify({
              company_code: who.company_code,
              employee_id: who.employee_id,
              order_type: 'drink',
              items: overLimit ? lunch : coffee,
              ...(isCapped ? { partial: true } : {}),
            }),
          };
        },
      });
  };
  const without = load(halves.unruled.payees, false);
  const withRules = load(halves.ruled.payees, true);

  await without(Math.min(8, Math.max(...options.concurrencies)), options.warmUpSeconds);
  await withRules(Math.min(8, Math.max(...options.concurrencies)), options.warmUpSeconds);
  const runs: AbbaComparison[] = [];
  for (const connections of options.concurrencies) {
    const comparison = await runAbba({
      databaseUrl,
      ...(options.apiPid ? { apiPid: options.apiPid } : {}),
      connections,
      seconds: options.seconds,
      rounds: options.rounds,
      a: without,
      b: withRules,
    });
    const { a, b } = comparison;
    log(
      `  ${connections} connections: with rules ${b.answeredPerSecond}/s (${b.okPerSecond} placed, ${(b.declinedShare * 100).toFixed(1)} % declined), ` +
        `without ${a.answeredPerSecond}/s; ratio ${comparison.ratio} (runs ${comparison.order}: ` +
        `${comparison.runs.map((r) => r.load.answeredPerSecond).join(' ')}); CPU ms/order API+database ` +
        `${round(b.cpuMsPerOrder.api + b.cpuMsPerOrder.database, 2)} with, ${round(a.cpuMsPerOrder.api + a.cpuMsPerOrder.database, 2)} without`,
    );
    runs.push(comparison);
  }
  const ordersAfter = await withClient(databaseUrl, countOrders);
  return {
    rules,
    companies: { ruled: halves.ruled.companies.length, unruled: halves.unruled.companies.length },
    payees: { perHalf, capped },
    mix: MIX,
    runs,
    walletsSpent,
    ordersCreated: ordersAfter - ordersBefore,
    loadAverage: { before: loadBefore, after: options.loadAverage() },
  };
}
