import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  REWARD_IMPORT_MAX_ROWS,
  dataOf,
  rewardImportPreviewSchema,
  type Company,
  type RewardImportPreview,
} from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs } from '../../../test/auth';
import { multipart } from '../../../test/http';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { auditRowsOf, newCompany, signedIn, type SignedInUser } from '../../../test/management';
import { queryRows } from '../../db/client';
import { issueToCompany } from '../tokens';

describe.each(await testDatabaseKinds())('bulk rewards on %s', (kind) => {
  let t: TestApp;
  let admin: SignedInUser;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signedIn(t, 'admin');
  });
  afterEach(async () => {
    await assertLedgerInvariants(t.db.database.db);
  });
  afterAll(() => t.close());

  /** A company holding `balance` tokens, its admin signed in, and `count` employees E0001…. */
  async function companyWithStaff(balance: number, count: number) {
    const company: Company = await newCompany(t);
    if (balance > 0) {
      await issueToCompany(t.app.deps, null, { company_id: company.id, amount: balance });
    }
    const as = await signedIn(t, 'company_admin', { companyId: company.id });
    const rows = Array.from(
      { length: count },
      (_, i) => `E${String(i + 1).padStart(4, '0')},Person ${i + 1}`,
    );
    const created = await injectAs(t.app, as.session, {
      method: 'POST',
      url: '/api/v1/employees/import',
      ...multipart(`employee_id,name\n${rows.join('\n')}\n`),
    });
    expect(created.json().data.created).toBe(count);
    const staff = await queryRows<{ id: number; employee_id: string }>(
      t.db.database.db,
      sql`SELECT id::int AS id, employee_id FROM employees
           WHERE company_id = ${company.id} ORDER BY employee_id`,
    );
    return { company, as, staff };
  }

  const balances = (companyId: number) =>
    queryRows<{ employee_id: string; balance: number }>(
      t.db.database.db,
      sql`SELECT employee_id, available_tokens::int AS balance
            FROM employees WHERE company_id = ${companyId} ORDER BY employee_id`,
    );
  const companyBalance = async (as: SignedInUser, companyId: number) =>
    (
      await injectAs(t.app, as.session, { method: 'GET', url: `/api/v1/companies/${companyId}` })
    ).json().data.token_balance as number;

  it('rewards 200 employees one amount each, all of them, in one request, audited once', async () => {
    const { company, as, staff } = await companyWithStaff(10_000, 200);
    const res = await injectAs(t.app, as.session, {
      method: 'POST',
      url: '/api/v1/tokens/topup-token/employees',
      payload: { items: staff.map((e) => ({ employee_id: e.id, amount: 25 })), note: 'Q4' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ total: 5_000, token_balance: 5_000 });
    const after = await balances(company.id);
    expect(after).toHaveLength(200);
    expect(after.every((row) => row.balance === 25)).toBe(true);
    expect(await companyBalance(as, company.id)).toBe(5_000);
    const audit = (await auditRowsOf(t, 'company', company.id)).filter(
      (row) => row.action === 'distribute',
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_user_id).toBe(as.user.id);
    expect(audit[0]!.after).toMatchObject({ total: 5_000, people: 200, note: 'Q4' });
  });

  const preview = (as: SignedInUser, content: string) =>
    injectAs(t.app, as.session, {
      method: 'POST',
      url: '/api/v1/tokens/topup-token/employees/preview',
      ...multipart(content, { filename: 'rewards.csv' }),
    });

  it('previews a reward file row by row against the balance, writing nothing', async () => {
    const { company, as, staff } = await companyWithStaff(1_000, 8);
    const other = await companyWithStaff(0, 9);
    // E0004 goes inactive; E0009 exists only in the other company.
    await injectAs(t.app, as.session, {
      method: 'PATCH',
      url: `/api/v1/employees/${staff[3]!.id}/status`,
      payload: { status: 'inactive' },
    });
    expect(other.staff).toHaveLength(9);
    const res = await preview(
      as,
      [
        '\uFEFFAmount,Employee_ID',
        '100,E0001',
        '"1,500",E0002',
        '7,E0001',
        '-5,E0003',
        '2.5,E0005',
        'ten,E0006',
        ',E0007',
        '10,E0004',
        '10,E0009',
        '',
        '40,E0008',
      ].join('\r\n'),
    );
    expect(res.statusCode).toBe(200);
    const body = dataOf(rewardImportPreviewSchema).parse(res.json()).data as RewardImportPreview;
    const brief = body.rows.map((row) => [
      row.line,
      row.employee_id,
      row.action,
      row.amount,
      row.errors ?? {},
    ]);
    expect(brief).toEqual([
      [2, 'E0001', 'reward', 100, {}],
      [3, 'E0002', 'reward', 1500, {}],
      [4, 'E0001', 'invalid', 7, { employee_id: 'v.duplicate_in_file' }],
      [5, 'E0003', 'invalid', null, { amount: 'v.amount_positive' }],
      [6, 'E0005', 'invalid', null, { amount: 'v.integer' }],
      [7, 'E0006', 'invalid', null, { amount: 'v.number_invalid' }],
      [8, 'E0007', 'invalid', null, { amount: 'v.required' }],
      [9, 'E0004', 'invalid', 10, { employee_id: 'v.employee_inactive' }],
      [10, 'E0009', 'invalid', 10, { employee_id: 'v.employee_not_found' }],
      [12, 'E0008', 'reward', 40, {}],
    ]);
    expect(body.rows[0]).toMatchObject({ id: staff[0]!.id, name: 'Person 1' });
    expect(body.summary).toEqual({
      people: 3,
      invalid: 7,
      total: 1_640,
      balance: 1_000,
      balance_after: -640,
    });
    expect((await balances(company.id)).every((row) => row.balance === 0)).toBe(true);
    expect(await companyBalance(as, company.id)).toBe(1_000);
  });

  it('refuses a file without both columns, an empty one and one past the row cap', async () => {
    const { as } = await companyWithStaff(0, 1);
    const missing = await preview(as, 'employee_id\nE0001\n');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'FILE_INVALID' });
    expect(missing.json().message).toContain('amount');
    expect((await preview(as, 'employee_id,amount\n')).json().code).toBe('EMPTY_FILE');
    const rows = Array.from({ length: REWARD_IMPORT_MAX_ROWS + 1 }, (_, i) => `E${i},1`);
    const big = await preview(as, `employee_id,amount\n${rows.join('\n')}`);
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('FILE_TOO_LARGE');
  });

  it('is for company admins only, and serves a template', async () => {
    const { as } = await companyWithStaff(0, 1);
    expect((await preview(admin, 'employee_id,amount\nE0001,1\n')).statusCode).toBe(403);
    const template = await injectAs(t.app, as.session, {
      method: 'GET',
      url: '/api/v1/tokens/topup-token/employees/template',
    });
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-type']).toContain('text/csv');
    expect(template.body.split('\r\n')[0]).toBe('employee_id,amount');
  });
});
