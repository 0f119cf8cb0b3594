import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSession, expectStatus, terminalCall } from './api';
import { expectPath, sessionPerTest, signIn, stopAfterFirstFailure } from './browser';
import { pick, readTable, waitForScreen } from './pages';

let page: Page;

/** Codes unique to this run, so the journey works whatever ran before it on the shared server. */
const suffix = Date.now().toString(36).toUpperCase().slice(-6);
const companyCode = `CM${suffix}`;
const companyName = `Month Foods ${suffix}`;
const adminUsername = `cm.${suffix.toLowerCase()}`;
const adminPassword = 'Month@2026';

/**
 * The journey's own amounts. Every figure the screens must show is computed from these, never
 * read back from the API.
 */
const OPENING = 1_000; // the company's initial token, credited when it is created
const ISSUED = 2_500; // the admin's top-up
const REWARDS = { E01: 300, E04: 200, E05: 150 } as const;
interface TerminalOrder {
  employee: string;
  items: [name: string, quantity: number, unitTokens: number][];
}
const ORDER_A: TerminalOrder = {
  employee: 'E01',
  items: [
    ['Rice bowl', 2, 45],
    ['Tea', 1, 30],
  ],
};
const ORDER_B: TerminalOrder = { employee: 'E04', items: [['Sandwich', 1, 80]] };
const REFUND_A = 30; // item_removed: the tea
const subtotal = (order: TerminalOrder) =>
  order.items.reduce((sum, [, quantity, unit]) => sum + quantity * unit, 0);
const SUBTOTAL_A = subtotal(ORDER_A); // 120
const SUBTOTAL_B = subtotal(ORDER_B); // 80, refunded in full (cancelled)

const FROM_ADMIN = OPENING + ISSUED;
const DISTRIBUTED = REWARDS.E01 + REWARDS.E04 + REWARDS.E05;
const PURCHASED = SUBTOTAL_A + SUBTOTAL_B;
const REFUNDED = REFUND_A + SUBTOTAL_B;
const CONSUMED = PURCHASED - REFUNDED;
const COMPANY_LEFT = FROM_ADMIN - DISTRIBUTED;
const BALANCE = {
  E01: REWARDS.E01 - SUBTOTAL_A + REFUND_A,
  E04: REWARDS.E04 - SUBTOTAL_B + SUBTOTAL_B,
  E05: REWARDS.E05,
};
const EMPLOYEES_LEFT = BALANCE.E01 + BALANCE.E04 + BALANCE.E05;

/** 1234 → '1,234', as the screens write amounts (spec 9). */
const n = (value: number) => value.toLocaleString('en-US');
/** A signed change as the transaction list writes it: '+300', '−300' (a minus sign). */
const signed = (value: number) => (value < 0 ? `\u2212${n(-value)}` : `+${n(value)}`);

let companyId = 0;
const orderNo = { A: '', B: '' };

beforeAll(async () => {
  // What admin-setup.spec.ts drives through the screens is set up here through the API.
  const admin = await apiSession('admin');
  const company = expectStatus(
    await admin<{ data: { id: number } }>('POST', '/companies', {
      code: companyCode,
      name: companyName,
      monthly_reset_day: 1,
      init_token: OPENING,
    }),
    201,
  );
  companyId = company.data.id;
  expectStatus(
    await admin('POST', '/tokens/topup-token', { company_id: companyId, amount: ISSUED }),
    200,
  );
  expectStatus(
    await admin('POST', '/companies/admin', {
      company_id: companyId,
      username: adminUsername,
      email: `${adminUsername}@e2e.test`,
      password: adminPassword,
      confirm_password: adminPassword,
      status: 'active',
    }),
    201,
  );
  const companyAdmin = await apiSession(adminUsername, adminPassword);
  for (const [employeeId, name] of [
    ['E01', 'Ann Lee'],
    ['E02', 'Ben Lee'],
    ['E03', 'Cat Wong'],
  ]) {
    expectStatus(
      await companyAdmin('POST', '/employees', { employee_id: employeeId, name, status: 'active' }),
      201,
    );
  }
});

sessionPerTest((opened) => ({ page } = opened));

// Each step reads what the one before wrote: a failure names itself in every later step.
stopAfterFirstFailure(() => page);

const table = (name: string) => page.getByRole('table', { name, exact: true });

describe("a company's month, from the CSV import to the reports", () => {
  it('imports employees from a CSV: each row marked in the preview, then the result', async () => {
    await signIn(page, adminUsername, adminPassword);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Employees' })
      .click();
    await expectPath(page, '/employees?status=active');
    await waitForScreen(page, 'Employees');

    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import employees' });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByText('Choose a file').waitFor();

    const csv = [
      'employee_id,name,email,status',
      `E01,Ann Updated,ann.${suffix.toLowerCase()}@e2e.test,active`,
      'E02,Ben Lee,,inactive',
      'E04,Dan New,,',
      'E05,Eve New,,active',
      'X,Bad Row,not-an-email,active',
    ].join('\r\n');
    await dialog.getByLabel('CSV file').setInputFiles({
      name: 'staff.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await dialog.getByRole('button', { name: 'Preview' }).click();

    const preview = dialog.getByRole('table', {
      name: 'The rows of the file and what importing does with each',
    });
    await preview.waitFor();
    const rows = await readTable(preview);
    expect(pick(rows, ['Line', 'Employee ID', 'Name', 'Status'])).toEqual([
      { Line: '2', 'Employee ID': 'E01', Name: 'Ann Updated', Status: 'Active' },
      { Line: '3', 'Employee ID': 'E02', Name: 'Ben Lee', Status: 'Inactive' },
      { Line: '4', 'Employee ID': 'E04', Name: 'Dan New', Status: 'Active' },
      { Line: '5', 'Employee ID': 'E05', Name: 'Eve New', Status: 'Active' },
      { Line: '6', 'Employee ID': 'X', Name: 'Bad Row', Status: 'Active' },
      { Line: 'Not in the file', 'Employee ID': 'E03', Name: 'Cat Wong', Status: 'Active' },
    ]);
    expect(rows.map((row) => row.Result)).toEqual([
      'Will override',
      'Will deactivate',
      'Will be created',
      'Will be created',
      'Invalid' +
        'employee_id: Employee ID must be at least 2 characters' +
        'email: Enter a valid email address',
      'Stays active',
    ]);
    const counts = dialog.getByLabel('Rows by result');
    expect(await counts.locator('dt').allInnerTexts()).toEqual([
      'Will be created',
      'Will override',
      'No change',
      'Will deactivate',
      'Stays active',
      'Invalid',
    ]);
    expect(await counts.locator('dd').allInnerTexts()).toEqual(['2', '1', '0', '1', '1', '1']);

    // Deactivating the employee missing from the file (E03) is an opt-in, left off here.
    const missingBox = dialog.getByRole('checkbox', {
      name: 'Deactivate employees missing from the file (1)',
    });
    expect(await missingBox.isChecked()).toBe(false);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const status = dialog.getByRole('status');
    await status.getByText('CSV uploaded successfully.').waitFor();
    await status.getByText('1 invalid row skipped').waitFor();
    expect(await status.innerText()).not.toMatch(/fail/i);
    const outcome = dialog.getByLabel('Import result');
    expect(await outcome.locator('dt').allInnerTexts()).toEqual([
      'Created',
      'Updated',
      'Unchanged',
      'Deactivated',
      'Skipped',
    ]);
    expect(await outcome.locator('dd').allInnerTexts()).toEqual(['2', '1', '0', '1', '1']);
    expect(await dialog.getByRole('list', { name: 'Skipped rows' }).innerText()).toContain(
      'Line 6 (X):',
    );
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // With the box unchecked nobody missing from the file was deactivated: Cat Wong is active.
    const listed = async () =>
      pick(await readTable(table('Employees')), ['Employee ID', 'Name', 'Status']);
    await expect.poll(listed).toEqual([
      { 'Employee ID': 'E01', Name: 'Ann Updated', Status: 'Active' },
      { 'Employee ID': 'E03', Name: 'Cat Wong', Status: 'Active' },
      { 'Employee ID': 'E04', Name: 'Dan New', Status: 'Active' },
      { 'Employee ID': 'E05', Name: 'Eve New', Status: 'Active' },
    ]);

    // The same file again, this time opting in (by keyboard): only E03 is deactivated, and the
    // button, destructive, says so.
    await page.getByRole('button', { name: 'Import CSV' }).click();
    await dialog.getByLabel('CSV file').setInputFiles({
      name: 'staff.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await preview.waitFor();
    await expect
      .poll(() => counts.locator('dd').allInnerTexts())
      .toEqual(['0', '0', '4', '0', '1', '1']);
    await missingBox.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => missingBox.isChecked()).toBe(true);
    await expect
      .poll(async () => (await readTable(preview)).at(-1))
      .toMatchObject({
        'Employee ID': 'E03',
        Result: 'Will deactivate',
        Status: 'Inactive',
      });
    const destructive = dialog.getByRole('button', { name: 'Import and deactivate 1' });
    expect(await destructive.getAttribute('data-variant')).toBe('destructive');
    await destructive.click();
    await status.getByText('CSV uploaded successfully.').waitFor();
    await expect
      .poll(() => outcome.locator('dd').allInnerTexts())
      .toEqual(['0', '0', '4', '1', '1']);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The active filter of the sidebar link now shows the file's active employees only.
    await expect.poll(listed).toEqual([
      { 'Employee ID': 'E01', Name: 'Ann Updated', Status: 'Active' },
      { 'Employee ID': 'E04', Name: 'Dan New', Status: 'Active' },
      { 'Employee ID': 'E05', Name: 'Eve New', Status: 'Active' },
    ]);
  });

  it('rewards tokens to the active employees within the company balance', async () => {
    await signIn(page, adminUsername, adminPassword);
    await page.goto('/employees?status=active');
    await waitForScreen(page);
    for (const name of ['Ann Updated', 'Dan New', 'Eve New']) {
      await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    }
    await page.getByRole('button', { name: 'Reward tokens (3)' }).click();

    const dialog = page.getByRole('dialog', { name: 'Reward tokens' });
    await dialog.getByTestId('reward-balance').getByText(n(FROM_ADMIN)).waitFor();
    await dialog.getByLabel('Amount for everyone').fill(String(FROM_ADMIN));
    await dialog.getByText('Total tokens exceed available limit!').waitFor();
    expect(await dialog.getByRole('button', { name: 'Review' }).isDisabled()).toBe(true);

    // One amount for everyone (Eve's), and Ann's and Dan's changed on their rows.
    await dialog.getByLabel('Amount for everyone').fill(String(REWARDS.E05));
    await dialog.getByRole('button', { name: 'Change the amount for Ann Updated' }).click();
    await dialog.getByLabel('Amount for Ann Updated').fill(String(REWARDS.E01));
    await dialog.getByRole('button', { name: 'Change the amount for Dan New' }).click();
    await dialog.getByLabel('Amount for Dan New').fill(String(REWARDS.E04));
    await dialog.getByTestId('reward-total').getByText(n(DISTRIBUTED)).waitFor();
    await dialog.getByRole('button', { name: 'Review' }).click();
    await dialog
      .getByTestId('reward-balance-after')
      .getByText(n(FROM_ADMIN - DISTRIBUTED))
      .waitFor();
    await dialog
      .getByRole('button', { name: `Reward ${n(DISTRIBUTED)} tokens to 3 employees` })
      .click();
    await page.getByText(`${n(DISTRIBUTED)} tokens rewarded to 3 employees`).waitFor();

    await expect
      .poll(async () =>
        pick(await readTable(table('Employees')), [
          'Employee ID',
          'Available tokens',
          'Issued tokens',
        ]),
      )
      .toEqual([
        { 'Employee ID': 'E01', 'Available tokens': n(300), 'Issued tokens': n(300) },
        { 'Employee ID': 'E04', 'Available tokens': n(200), 'Issued tokens': n(200) },
        { 'Employee ID': 'E05', 'Available tokens': n(150), 'Issued tokens': n(150) },
      ]);
  });

  it('takes orders and refunds at a terminal, refusing one larger than the balance', async () => {
    const order = (spec: TerminalOrder) =>
      terminalCall<{ data: { id: number; order_no: string; available_tokens: number } }>(
        '/orders',
        {
          company_code: companyCode,
          employee_id: spec.employee,
          order_type: 'dine_in',
          items: spec.items.map(([name, quantity, unit_tokens]) => ({
            name,
            quantity,
            unit_tokens,
          })),
        },
      );
    const placedA = expectStatus(await order(ORDER_A), 201).data;
    expect(placedA.available_tokens).toBe(REWARDS.E01 - SUBTOTAL_A);
    const placedB = expectStatus(await order(ORDER_B), 201).data;
    expect(placedB.available_tokens).toBe(REWARDS.E04 - SUBTOTAL_B);
    orderNo.A = placedA.order_no;
    orderNo.B = placedB.order_no;

    const tooLarge = await order({ employee: 'E05', items: [['Feast', 1, REWARDS.E05 + 1]] });
    expect(tooLarge.status).toBe(409);
    expect(tooLarge.body).toMatchObject({ code: 'INSUFFICIENT_TOKENS' });

    const refundA = await terminalCall<{ data: { refund: { available_tokens: number } } }>(
      `/orders/${placedA.id}/refund`,
      { reason: 'item_removed', amount: REFUND_A },
    );
    expect(expectStatus(refundA, 200).data.refund.available_tokens).toBe(BALANCE.E01);
    const refundB = await terminalCall<{ data: { refund: { available_tokens: number } } }>(
      `/orders/${placedB.id}/refund`,
      { reason: 'cancelled' },
    );
    expect(expectStatus(refundB, 200).data.refund.available_tokens).toBe(BALANCE.E04);
  });

  it('shows every movement with its balances on Company and Employee Transaction', async () => {
    await signIn(page, adminUsername, adminPassword);
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    // The Token Transaction group starts open.
    await sidebar.getByRole('link', { name: 'Company Transaction' }).click();
    await expectPath(page, '/company-transaction');
    await waitForScreen(page, 'Company Transaction');
    await page.getByText('No more transactions.').waitFor();
    const columns = [
      'Event',
      'Token change',
      'Before balance',
      'After balance',
      'Transaction type',
    ];
    const company = pick(await readTable(table('Company transactions')), columns);
    const afterFirst = FROM_ADMIN - REWARDS.E01;
    const companyRow = (event: string, change: number, before: number, type: string) => ({
      Event: event,
      'Token change': signed(change),
      'Before balance': n(before),
      'After balance': n(before + change),
      'Transaction type': type,
    });
    // Newest first in the ledger's write order: read bottom-up, the distribution chains.
    expect(company).toEqual([
      // Each event in words with its counterparty (issue 19).
      companyRow('Issued to E05 Eve New', -REWARDS.E05, afterFirst - REWARDS.E04, 'Sent'),
      companyRow('Issued to E04 Dan New', -REWARDS.E04, afterFirst, 'Sent'),
      companyRow('Issued to E01 Ann Updated', -REWARDS.E01, FROM_ADMIN, 'Sent'),
      companyRow('Received from the platform', ISSUED, OPENING, 'Received'),
      companyRow('Monthly allocation from the platform', OPENING, 0, 'Received'),
    ]);

    await sidebar.getByRole('link', { name: 'Employee Transaction' }).click();
    await expectPath(page, '/employee-transaction');
    await waitForScreen(page, 'Employee Transaction');
    await page.getByText('No more transactions.').waitFor();
    const employeeColumns = ['Staff number', 'Event', 'Token change', 'Before balance'];
    const employees = pick(await readTable(table('Employee transactions')), [
      ...employeeColumns,
      'After balance',
      'Order ID',
      'Order status',
      'Subtotal',
    ]);
    const row = (
      staff: string,
      event: string,
      change: number,
      before: number,
      order?: { no: string; status: string; subtotal: number },
    ) => ({
      'Staff number': staff,
      Event: event,
      'Token change': signed(change),
      'Before balance': n(before),
      'After balance': n(before + change),
      'Order ID': order?.no ?? '—',
      'Order status': order?.status ?? '—',
      Subtotal: order ? n(order.subtotal) : '—',
    });
    // 30 of 120 refunded: partially refunded, though the API's status stays `ordered`.
    const orderA = { no: orderNo.A, status: 'Partially refunded', subtotal: SUBTOTAL_A };
    const orderB = { no: orderNo.B, status: 'Refunded', subtotal: SUBTOTAL_B };
    const afterA = REWARDS.E01 - SUBTOTAL_A;
    const fromCompany = `Received from ${companyName} (${companyCode})`;
    const afterB = REWARDS.E04 - SUBTOTAL_B;
    expect(employees).toEqual([
      row('E04', `Refund of order ${orderNo.B} at SHOP (Cancelled)`, SUBTOTAL_B, afterB, orderB),
      row('E01', `Refund of order ${orderNo.A} at SHOP (Item removed)`, REFUND_A, afterA, orderA),
      row('E04', `Order ${orderNo.B} at SHOP`, -SUBTOTAL_B, REWARDS.E04, orderB),
      row('E01', `Order ${orderNo.A} at SHOP`, -SUBTOTAL_A, REWARDS.E01, orderA),
      row('E05', fromCompany, REWARDS.E05, 0),
      row('E04', fromCompany, REWARDS.E04, 0),
      row('E01', fromCompany, REWARDS.E01, 0),
    ]);
  });

  it("shows the month's totals on the company admin's dashboard and summary report", async () => {
    await signIn(page, adminUsername, adminPassword);
    await expectPath(page, '/dashboard');
    await waitForScreen(page, 'Dashboard');
    expect(await totalCards(page)).toEqual(expectedCards);

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Summary Report' })
      .click();
    await expectPath(page, '/summary-report');
    await waitForScreen(page, 'Summary Report');
    const report = await readTable(table('Summary report'));
    expect(report).toEqual([
      {
        Code: companyCode,
        Company: companyName,
        // Its token month counted (decision 0088): a company resetting on the 1st, the month.
        'Days counted': expect.stringMatching(/^1 \w{3} – \d{2} \w{3} \d{4}$/),
        ...expectedReportTotals,
      },
      { Code: 'Grand total', ...expectedReportTotals },
    ]);
  });

  it('gives the admin the same figures: dashboard, company report and order history', async () => {
    await signIn(page, 'admin');
    await waitForScreen(page);
    // The summary across companies has the company's row.
    const summary = await readTable(page.getByRole('table', { name: 'Summary across companies' }));
    const mine = summary.find((r) => r.Company === `${companyName} (${companyCode})`);
    expect(mine).toMatchObject({
      'Total tokens from admin': n(FROM_ADMIN),
      'Total distributed to employees': n(DISTRIBUTED),
      'Total consumed by employees': n(CONSUMED),
      'Company unused tokens': n(COMPANY_LEFT),
      'Employee unused tokens': n(EMPLOYEES_LEFT),
    });

    await page.getByLabel('Company', { exact: true }).selectOption(String(companyId));
    await expectPath(page, `/dashboard?company_id=${companyId}`);
    await waitForScreen(page);
    await expect.poll(() => totalCards(page)).toEqual(expectedCards);

    await page.goto(`/summary-report/${companyId}`);
    await waitForScreen(page);
    await page.getByRole('heading', { level: 1, name: `Summary Report: ${companyName}` }).waitFor();
    const perEmployee = pick(await readTable(table("Employees' report")), [
      'Staff number',
      'Status',
      'Received',
      'Purchased',
      'Refunded',
      'Consumed',
      'Expired',
      'Unused',
      'Available tokens',
    ]);
    const employee = (
      staff: string,
      status: string,
      received: number,
      purchased: number,
      refunded: number,
    ) => {
      const left = received - purchased + refunded;
      return {
        'Staff number': staff,
        Status: status,
        Received: n(received),
        Purchased: n(purchased),
        Refunded: n(refunded),
        Consumed: n(purchased - refunded),
        Expired: '0',
        Unused: n(left),
        'Available tokens': n(left),
      };
    };
    expect(perEmployee).toEqual([
      employee('E01', 'Active', REWARDS.E01, SUBTOTAL_A, REFUND_A),
      employee('E02', 'Inactive', 0, 0, 0),
      employee('E03', 'Inactive', 0, 0, 0),
      employee('E04', 'Active', REWARDS.E04, SUBTOTAL_B, SUBTOTAL_B),
      employee('E05', 'Active', REWARDS.E05, 0, 0),
    ]);

    await page.goto(`/order-history?company_id=${companyId}`);
    await waitForScreen(page);
    const orders = pick(await readTable(table('Orders')), [
      'Order no.',
      'Employee',
      'Subtotal',
      'Refunded',
      'Status',
    ]);
    expect(orders).toEqual([
      {
        'Order no.': orderNo.B,
        Employee: 'E04 · Dan New',
        Subtotal: n(SUBTOTAL_B),
        Refunded: n(SUBTOTAL_B),
        Status: 'Refunded',
      },
      {
        'Order no.': orderNo.A,
        Employee: 'E01 · Ann Updated',
        Subtotal: n(SUBTOTAL_A),
        Refunded: n(REFUND_A),
        Status: 'Partially refunded',
      },
    ]);
  });

  it("lets Group HR read the company's figures but not the merchants", async () => {
    await signIn(page, 'grouphr');
    const entries = await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link')
      .allInnerTexts();
    expect(entries).toContain('Companies');
    expect(entries).not.toContain('Merchants');
    expect(entries).not.toContain('Terminals');

    await page.goto(`/companies?search=${companyCode}`);
    await waitForScreen(page);
    expect(pick(await readTable(table('Companies')), ['Company code'])).toEqual([
      { 'Company code': companyCode },
    ]);
    await page.goto(`/dashboard?company_id=${companyId}`);
    await waitForScreen(page);
    expect(await totalCards(page)).toEqual(expectedCards);

    await page.goto('/terminals');
    await expectPath(page, '/error/403');
  });
});

const expectedCards = [
  ['Total tokens from admin', n(FROM_ADMIN)],
  ['Total distributed to employees', n(DISTRIBUTED)],
  ['Total consumed by employees', n(CONSUMED)],
  ['Company unused tokens', n(COMPANY_LEFT)],
  ['Employee unused tokens', n(EMPLOYEES_LEFT)],
];

const expectedReportTotals = {
  'Tokens from admin': n(FROM_ADMIN),
  'Distributed to employees': n(DISTRIBUTED),
  'Consumed by employees': n(CONSUMED),
  'Company unused': n(COMPANY_LEFT),
  'Employee unused': n(EMPLOYEES_LEFT),
};

/** The dashboard's total cards as [title, amount]. */
async function totalCards(on: Page): Promise<string[][]> {
  const cards = on.getByRole('list', { name: 'Totals' }).getByRole('listitem');
  return Promise.all(
    (await cards.all()).map(async (card) => {
      const [title = '', amount = ''] = (await card.innerText()).split('\n').filter(Boolean);
      return [title.trim(), amount.trim()];
    }),
  );
}
