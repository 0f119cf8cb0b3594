// The ledger's write order (issue 13): under concurrent writers whose clocks disagree, every
// wallet's transaction list, read bottom-up across its pages, chains balance_before → balance_after.
import crypto from 'node:crypto';
import type { TokenTransaction } from '@app/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, signIn, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../../../test/ledger';
import { issueToCompany } from '../tokens';
import { transactionPageQuery, type TransactionFilter } from './transactions.repository';

/** Every row of a list, following its cursor `limit` rows at a time. */
async function wholeList(
  t: TestApp,
  session: TestSession,
  query: string,
  limit: number,
): Promise<{ rows: TokenTransaction[]; pages: number }> {
  const rows: TokenTransaction[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await injectAs(t.app, session, {
      method: 'GET',
      url: `/api/v1/tokens/transactions?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    });
    expect(res.statusCode).toBe(200);
    const page = res.json() as { data: TokenTransaction[]; next_cursor: string | null };
    rows.push(...page.data);
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor);
  return { rows, pages };
}

/** The breaks of a newest-first list read from the bottom up: none when the wallet chains. */
function chainBreaks(newestFirst: TokenTransaction[], opening = 0): string[] {
  const oldestFirst = [...newestFirst].reverse();
  const breaks: string[] = [];
  let previousAfter = opening;
  for (const row of oldestFirst) {
    if (row.balance_before !== previousAfter) {
      breaks.push(
        `row ${row.id} (${row.event}) starts at ${row.balance_before}, not ${previousAfter}`,
      );
    }
    previousAfter = row.balance_after ?? Number.NaN;
  }
  return breaks;
}

describe.each(await testDatabaseKinds())('transaction lists in write order on %s', (kind) => {
  let t: TestApp;
  let admin: TestSession;

  beforeAll(async () => {
    t = await createTestApp(kind);
    // Each writer reads the clock before it takes its wallet lock, as a server under load does:
    // the times of rows on one wallet need not follow the order in which they were written.
    const base = t.clock.now().getTime();
    t.clock.now = () => new Date(base + crypto.randomInt(60_000));
    const user = await createUser(t.db.database.db, { type: 'admin' });
    admin = await signIn(t.app, user.username, user.password);
  });
  afterAll(() => t.close());

  it('chains every wallet bottom-up, across pages, after concurrent distributions and orders', async () => {
    const deps = t.app.deps;
    const company = await newCompany(deps, { initToken: 0 });
    await issueToCompany(deps, null, { company_id: company.id, amount: 100_000 });
    const staff = await Promise.all(Array.from({ length: 6 }, () => newEmployee(deps, company.id)));
    const companyAdminUser = await createUser(t.db.database.db, {
      type: 'company_admin',
      companyId: company.id,
    });
    const companyAdmin = await signIn(t.app, companyAdminUser.username, companyAdminUser.password);

    // 30 distributions at once, each to a few of the six employees.
    const distributions = Array.from({ length: 30 }, (_, i) =>
      injectAs(t.app, companyAdmin, {
        method: 'POST',
        url: '/api/v1/tokens/topup-token/employees',
        payload: {
          items: staff
            .filter((_, j) => (i + j) % 3 !== 0)
            .map((e) => ({ employee_id: e.id, amount: 50 + i })),
        },
      }),
    );
    expect((await Promise.all(distributions)).map((r) => r.statusCode)).toEqual(
      Array.from({ length: 30 }, () => 200),
    );

    // 40 orders at once on one employee, at two merchants' terminals.
    const terminals: TestTerminal[] = [await newTerminal(deps), await newTerminal(deps)];
    const buyer = staff[1]!;
    const orders = Array.from({ length: 40 }, (_, i) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/orders',
        headers: {
          authorization: `Bearer ${terminals[i % 2]!.key}`,
          'idempotency-key': crypto.randomUUID(),
        },
        payload: {
          company_code: company.code,
          employee_id: buyer.employee_id,
          order_type: 'dine_in',
          items: [{ name: 'Lunch', quantity: 1, unit_tokens: 7 + (i % 5) }],
        },
      }),
    );
    expect((await Promise.all(orders)).map((r) => r.statusCode)).toEqual(
      Array.from({ length: 40 }, () => 201),
    );

    const companyList = await wholeList(t, admin, `scope=company&company_id=${company.id}`, 7);
    // The top-up, then one company debit per transfer.
    const transfers = Array.from({ length: 30 }, (_, i) =>
      staff.filter((_, j) => (i + j) % 3 !== 0),
    ).flat().length;
    expect(companyList.rows).toHaveLength(1 + transfers);
    expect(companyList.pages).toBeGreaterThan(3);
    expect(chainBreaks(companyList.rows)).toEqual([]);
    // The list is in the ledger's write order, newest first.
    const seqs = companyList.rows.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));

    for (const employee of staff) {
      const { rows } = await wholeList(t, admin, `employee_id=${employee.id}`, 6);
      expect(rows.length).toBeGreaterThan(employee.id === buyer.id ? 40 : 10);
      expect(chainBreaks(rows)).toEqual([]);
      // The company admin reads the same rows in the same order.
      const asCompany = await wholeList(t, companyAdmin, `employee_id=${employee.id}`, 9);
      expect(asCompany.rows.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    }
    await assertLedgerInvariants(deps.database.db);
  });

  it('finds a wallet’s page in the wallet’s own index, reading no row outside the page', async () => {
    // A company's wallet rows come at the month's allocation and distributions, and weeks of
    // orders follow them. Asked for whole rows, the planner read the ledger backwards by seq and
    // filtered (70–130 ms for a big company's wallet page on the bench, decision 0063). The page's
    // positions must come from the scope's partial index alone, an index only scan.
    const company = await newCompany(t.app.deps, { initToken: 100 });
    const planOf = (filter: TransactionFilter) =>
      t.app.deps.database.db.transaction(async (tx) => {
        // Priced out, so that a table this small still shows the plan a big one gets.
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
        const rows = await queryRows<Record<string, string>>(
          tx,
          sql`EXPLAIN ${transactionPageQuery(filter)}`,
        );
        return rows.map((r) => Object.values(r)[0]).join('\n');
      });
    const wallet = await planOf({ companyId: company.id, wallet: 'company', limit: 50 });
    expect(wallet).toMatch(/Index Only Scan using token_tx_company_wallet_idx/);
    const employees = await planOf({ companyId: company.id, wallet: 'employee', limit: 50 });
    expect(employees).toMatch(/Index Only Scan using token_tx_company_employees_idx/);
    // A later page too: the cursor is a bound on the same index.
    const later = await planOf({
      companyId: company.id,
      wallet: 'company',
      limit: 50,
      cursor: { seq: 1_000 },
    });
    expect(later).toMatch(/Index Only Scan using token_tx_company_wallet_idx/);
  });

  it('refuses a forged cursor with 400 QUERY_PARAM_INVALID', async () => {
    for (const cursor of [
      Buffer.from('[1e400]').toString('base64url'),
      Buffer.from('["2026-01-01T00:00:00Z", 5]').toString('base64url'),
      Buffer.from('{"seq":5}').toString('base64url'),
      Buffer.from('[-3]').toString('base64url'),
      '%%%',
    ]) {
      const res = await injectAs(t.app, admin, {
        method: 'GET',
        url: `/api/v1/tokens/transactions?cursor=${encodeURIComponent(cursor)}`,
      });
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'QUERY_PARAM_INVALID',
        metadata: { cursor: expect.any(String) },
      });
    }
  });
});
