// A month of a token programme, through the HTTP API alone (issue 3, "done when").
//
//   npx tsx apps/api/scripts/month-demo.ts            # in-memory PGlite
//   DATABASE_URL=postgres://… npx tsx apps/api/scripts/month-demo.ts   # an EMPTY PostgreSQL database
//
// The app runs in-process with a hand-driven clock (the one lever besides HTTP: a month must
// pass), and every step is an HTTP request through `app.inject`: sign-ins, companies, a company
// admin, employees, the monthly plan, a top-up, a distribution, terminals, orders (one refused,
// one retried with its Idempotency-Key), refunds, the reset, and the transactions read back.
// It prints the ledger and the balances and fails loudly if any number is off.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createDatabase } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { ManualClock } from '../src/lib/clock';
import { seedOnFirstStart } from '../src/seed';
import { signIn as signInWithInject } from '../test/auth';
import { idempotencyHeaders } from '../test/idempotency';
import { assertLedgerInvariants } from '../src/modules/ledger';

interface Session {
  cookie: string;
  xsrf: string;
}

interface Row {
  id: number;
  occurred_at: string;
  event: string;
  employee_number: string | null;
  direction: string;
  amount: number;
  balance_before: number;
  balance_after: number;
  period: string;
  refund_reason: string | null;
}

export interface MonthDemoResult {
  company: { id: number; token_balance: number; token_month: string };
  employees: { employee_id: string; available_tokens: number; token_month: string }[];
  transactions: Row[];
  /** Σ per event, from the transactions list. */
  totals: Record<string, number>;
  pages: number;
}

const ADMIN = { username: 'demo.admin', password: 'Month#Demo2026' };
const PASSWORD = 'Month#Demo2026';

/** Runs the month on a built app whose clock the caller controls; returns what it read back. */
export async function runMonthDemo(
  app: FastifyInstance,
  clock: ManualClock,
  log: (line: string) => void = () => undefined,
): Promise<MonthDemoResult> {
  const call = async (session: Session | null, options: InjectOptions, expected: number) => {
    const res = await app.inject({
      ...options,
      headers: {
        ...(session ? { cookie: session.cookie, 'x-xsrf-token': session.xsrf } : {}),
        ...idempotencyHeaders(options.method, String(options.url), options.headers),
        ...options.headers,
      },
    });
    assert.equal(res.statusCode, expected, `${options.method} ${options.url}: ${res.body}`);
    return res.json();
  };
  const signIn = async (username: string, password: string): Promise<Session> =>
    signInWithInject(app, username, password);
  const terminalCall = (key: string, url: string, idempotencyKey: string, payload: object) =>
    app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey },
      payload,
    });

  // 1 March: the programme starts.
  clock.set('2026-03-01T08:00:00Z');
  let admin = await signIn(ADMIN.username, ADMIN.password);
  const company = (
    await call(
      admin,
      {
        method: 'POST',
        url: '/api/v1/companies',
        payload: {
          code: 'ACME',
          name: 'Acme Ltd',
          status: 'active',
          monthly_reset_day: 1,
          init_token: 10_000,
        },
      },
      201,
    )
  ).data;
  log(`created ACME: balance ${company.token_balance}, token month ${company.token_month}`);
  await call(
    admin,
    {
      method: 'POST',
      url: '/api/v1/companies/admin',
      payload: {
        company_id: company.id,
        username: 'acme.boss',
        email: 'boss@acme.example',
        password: PASSWORD,
        confirm_password: PASSWORD,
        status: 'active',
      },
    },
    201,
  );
  const boss = await signIn('acme.boss', PASSWORD);
  await call(
    boss,
    {
      method: 'PUT',
      url: '/api/v1/tokens/configuration',
      payload: { employee_monthly_tokens: 300 },
    },
    200,
  );
  const staff: { id: number; employee_id: string }[] = [];
  for (const number of ['E0001', 'E0002', 'E0003']) {
    staff.push(
      (
        await call(
          boss,
          {
            method: 'POST',
            url: '/api/v1/employees',
            payload: { employee_id: number, name: `Employee ${number}`, status: 'active' },
          },
          201,
        )
      ).data,
    );
  }
  const [e1, e2, e3] = staff as [(typeof staff)[0], (typeof staff)[0], (typeof staff)[0]];

  await call(
    admin,
    {
      method: 'POST',
      url: '/api/v1/tokens/topup-token',
      payload: { company_id: company.id, amount: 2_000, note: 'March budget' },
    },
    200,
  );
  const distributed = await call(
    boss,
    {
      method: 'POST',
      url: '/api/v1/tokens/topup-token/employees',
      payload: {
        items: [
          { employee_id: e1.id, amount: 500 },
          { employee_id: e2.id, amount: 400 },
          { employee_id: e3.id, amount: 300 },
        ],
      },
    },
    200,
  );
  log(
    `issued 2000, distributed ${distributed.data.total}; company holds ${distributed.data.token_balance}`,
  );

  const merchant = (
    await call(
      admin,
      { method: 'POST', url: '/api/v1/merchants', payload: { code: 'SHOP', name: 'Shop' } },
      201,
    )
  ).data;
  const [t1, t2] = [
    (
      await call(
        admin,
        {
          method: 'POST',
          url: '/api/v1/terminals',
          payload: { merchant_id: merchant.id, code: 'TILL1', name: 'Till 1' },
        },
        201,
      )
    ).data.api_key as string,
    (
      await call(
        admin,
        {
          method: 'POST',
          url: '/api/v1/terminals',
          payload: { merchant_id: merchant.id, code: 'TILL2', name: 'Till 2' },
        },
        201,
      )
    ).data.api_key as string,
  ];

  // 10 March: lunch.
  clock.set('2026-03-10T12:00:00Z');
  const place = async (key: string, employeeId: string, unitTokens: number, quantity = 1) => {
    const idempotencyKey = crypto.randomUUID();
    const payload = {
      company_code: 'ACME',
      employee_id: employeeId,
      order_type: 'dine_in',
      items: [{ name: 'Lunch', quantity, unit_tokens: unitTokens }],
    };
    const res = await terminalCall(key, '/api/v1/orders', idempotencyKey, payload);
    return { res, idempotencyKey, payload };
  };
  const first = await place(t1, e1.employee_id, 60, 2);
  assert.equal(first.res.statusCode, 201, first.res.body);
  const second = await place(t2, e1.employee_id, 80);
  const third = await place(t1, e2.employee_id, 400);
  const fourth = await place(t2, e3.employee_id, 50);
  for (const o of [second, third, fourth]) assert.equal(o.res.statusCode, 201, o.res.body);
  const refused = await place(t1, e2.employee_id, 10);
  assert.equal(refused.res.statusCode, 409);
  assert.equal(refused.res.json().code, 'INSUFFICIENT_TOKENS');
  const retried = await terminalCall(t1, '/api/v1/orders', first.idempotencyKey, first.payload);
  assert.equal(retried.body, first.res.body, 'a retry returns the first answer');
  log(
    '4 orders paid (120, 80, 400, 50); one refused for INSUFFICIENT_TOKENS; one retry answered once',
  );

  // 12 March: refunds.
  clock.set('2026-03-12T15:00:00Z');
  const cancelled = await terminalCall(
    t2,
    `/api/v1/orders/${second.res.json().data.id}/refund`,
    crypto.randomUUID(),
    { reason: 'cancelled' },
  );
  assert.equal(cancelled.statusCode, 200, cancelled.body);
  const partial = await terminalCall(
    t2,
    `/api/v1/orders/${fourth.res.json().data.id}/refund`,
    crypto.randomUUID(),
    { reason: 'item_removed', amount: 20 },
  );
  assert.equal(partial.statusCode, 200, partial.body);
  log('refunded 80 (cancelled) and 20 (item_removed)');

  // 1 April, 00:00: the monthly reset (triggered by hand; the timer would do the same).
  clock.set('2026-04-01T00:00:00Z');
  admin = await signIn(ADMIN.username, ADMIN.password);
  const reset = await call(admin, { method: 'POST', url: '/api/v1/jobs/monthly-reset' }, 200);
  assert.deepEqual(reset.data.runs, [
    { company_id: company.id, period: '2026-04', status: 'applied' },
  ]);
  log('reset applied: ACME enters 2026-04');

  // Read it all back.
  const transactions: Row[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: { data: Row[]; next_cursor: string | null } = await call(
      admin,
      {
        method: 'GET',
        url: `/api/v1/tokens/transactions?company_id=${company.id}&limit=5${cursor ? `&cursor=${cursor}` : ''}`,
      },
      200,
    );
    transactions.push(...page.data);
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor);
  const totals: Record<string, number> = {};
  for (const row of transactions) totals[row.event] = (totals[row.event] ?? 0) + row.amount;

  const companyNow = (
    await call(admin, { method: 'GET', url: `/api/v1/companies/${company.id}` }, 200)
  ).data;
  const employees = [];
  for (const e of staff) {
    const view = (await call(admin, { method: 'GET', url: `/api/v1/employees/${e.id}` }, 200)).data;
    employees.push({
      employee_id: view.employee_id as string,
      available_tokens: view.available_tokens as number,
      token_month: view.token_month as string,
    });
  }
  return {
    company: {
      id: companyNow.id,
      token_balance: companyNow.token_balance,
      token_month: companyNow.token_month,
    },
    employees,
    transactions,
    totals,
    pages,
  };
}

/** The admin the month starts with (created as on a first start, from ADMIN_USERNAME). */
export const MONTH_DEMO_ADMIN = ADMIN;

async function main() {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SERVE_WEB: 'false',
    DEMO_DATA: 'false',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    DATABASE_URL: process.env.DATABASE_URL,
  });
  const database = await createDatabase({ url: config.DATABASE_URL });
  try {
    await migrate(database);
    await seedOnFirstStart({
      config,
      database,
      log: { info: () => undefined, warn: console.warn },
    });
    const clock = new ManualClock();
    const app = await buildApp({ config, database, clock, logger: false });
    const result = await runMonthDemo(app, clock, (line) => console.log(`· ${line}`));
    await app.close();

    console.log('\nACME ledger, newest first:');
    for (const r of result.transactions) {
      console.log(
        `  ${r.occurred_at}  ${r.period}  ${r.event.padEnd(21)} ${(r.employee_number ?? 'company').padEnd(8)}` +
          ` ${r.direction.padEnd(8)} ${String(r.amount).padStart(6)}  ${String(r.balance_before).padStart(6)} → ${String(r.balance_after).padStart(6)}` +
          (r.refund_reason ? `  (${r.refund_reason})` : ''),
      );
    }
    console.log(
      `\nbalances: ACME ${result.company.token_balance} in ${result.company.token_month}`,
    );
    for (const e of result.employees) {
      console.log(`  ${e.employee_id} ${e.available_tokens} in ${e.token_month}`);
    }
    const t = (event: string) => result.totals[event] ?? 0;
    const net =
      t('company_issued') +
      t('monthly_tokens_added') -
      t('company_expired') -
      t('employee_expired') -
      t('order_purchased') +
      t('order_refunded');
    const held =
      result.company.token_balance + result.employees.reduce((s, e) => s + e.available_tokens, 0);
    console.log(`conservation: in − out = ${net}; held in wallets = ${held}`);
    assert.equal(net, held);
    const summary = await assertLedgerInvariants(database.db);
    console.log(`invariants 1–6 hold over ${summary.rows} ledger rows.`);
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
