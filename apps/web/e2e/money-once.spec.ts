// Money moves once (issue 39 item 1, decision 0068): a double-click on the final button of Issue
// tokens and of the reward dialog, with every request the browser sends delivered twice (as a
// retry after a lost answer would be), issues and rewards once. The balances are read back
// through the API.
import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSession, expectStatus, type ApiCall } from './api';
import { sessionPerTest, signIn, stopAfterFirstFailure } from './browser';
import { waitForScreen } from './pages';

let page: Page;

const suffix = Date.now().toString(36).toUpperCase().slice(-6);
const companyCode = `MO${suffix}`;
const companyName = `Once Foods ${suffix}`;
const adminUsername = `mo.${suffix.toLowerCase()}`;
const adminPassword = 'Once@2026';
const OPENING = 1_000;
const ISSUED = 2_500;
const REWARD = 120; // each of two employees

const n = (value: number) => value.toLocaleString('en-US');

let admin: ApiCall;
let companyId = 0;
const employeeIds: number[] = [];

beforeAll(async () => {
  admin = await apiSession('admin');
  companyId = expectStatus(
    await admin<{ data: { id: number } }>('POST', '/companies', {
      code: companyCode,
      name: companyName,
      monthly_reset_day: 1,
      init_token: OPENING,
    }),
    201,
  ).data.id;
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
    ['E01', 'Ona First'],
    ['E02', 'Tom Second'],
  ]) {
    employeeIds.push(
      expectStatus(
        await companyAdmin<{ data: { id: number } }>('POST', '/employees', {
          employee_id: employeeId,
          name,
          status: 'active',
        }),
        201,
      ).data.id,
    );
  }
});

sessionPerTest((opened) => ({ page } = opened));
stopAfterFirstFailure(() => page);

/**
 * Delivers each request to `url` twice, as a client retrying after a lost answer would (same
 * headers, same body), and gives the page the second answer. Returns the statuses seen.
 */
async function deliverTwice(url: string): Promise<number[]> {
  const statuses: number[] = [];
  await page.route(url, async (route: Route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const first = await route.fetch();
    statuses.push(first.status());
    const second = await route.fetch();
    statuses.push(second.status());
    await route.fulfill({ response: second });
  });
  return statuses;
}

const companyBalance = async () =>
  expectStatus(
    await admin<{ data: { token_balance: number } }>('GET', `/companies/${companyId}`),
    200,
  ).data.token_balance;

/** The company's ledger rows of `event` and direction `type`, through the API. */
const ledgerRows = async (event: string, type = 'received') =>
  expectStatus(
    await admin<{ data: { amount: number; employee_id: number | null }[] }>(
      'GET',
      `/tokens/transactions?company_id=${companyId}&event=${event}&type=${type}&limit=100`,
    ),
    200,
  ).data;

describe('money moves once', () => {
  it('issues tokens once for a double-click on the confirmation, each request sent twice', async () => {
    await signIn(page, 'admin');
    await page.goto(`/companies?search=${companyCode}`);
    await waitForScreen(page, 'Companies');
    const statuses = await deliverTwice('**/api/v1/tokens/topup-token');
    await page.getByRole('button', { name: `Actions for ${companyName}` }).click();
    await page.getByRole('menuitem', { name: 'Issue tokens' }).click();
    const dialog = page.getByRole('dialog', { name: 'Issue tokens' });
    await dialog.getByLabel('Amount').fill(String(ISSUED));
    await dialog.getByRole('button', { name: 'Issue tokens' }).click();
    // The confirm step names the company and the amount.
    await dialog
      .getByText(`${n(ISSUED)} tokens go from the platform to the wallet of ${companyName}.`)
      .waitFor();
    await dialog
      .getByRole('button', { name: `Issue ${n(ISSUED)} tokens to ${companyName}` })
      .dblclick();
    await page.getByText(`${n(ISSUED)} tokens issued to ${companyName}`).waitFor();
    await dialog.waitFor({ state: 'detached' });

    // Every delivery answered 200 (the repeats with the first answer), and one top-up landed.
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(await companyBalance()).toBe(OPENING + ISSUED);
    // The opening credit is the month's (monthly_tokens_added); the one top-up is the only issue.
    expect((await ledgerRows('company_issued')).map((row) => row.amount)).toEqual([ISSUED]);
  });

  it('rewards once for a double-click on the reward confirmation, each request sent twice', async () => {
    await signIn(page, adminUsername, adminPassword);
    await page.goto('/employees?status=active');
    await waitForScreen(page);
    const statuses = await deliverTwice('**/api/v1/tokens/topup-token/employees');
    for (const name of ['Ona First', 'Tom Second']) {
      await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    }
    await page.getByRole('button', { name: 'Reward tokens (2)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reward tokens' });
    await dialog
      .getByTestId('reward-balance')
      .getByText(n(OPENING + ISSUED))
      .waitFor();
    await dialog.getByLabel('Amount for everyone').fill(String(REWARD));
    await dialog.getByRole('button', { name: 'Review' }).click();
    await dialog
      .getByRole('button', { name: `Reward ${n(REWARD * 2)} tokens to 2 employees` })
      .dblclick();
    await page.getByText(`${n(REWARD * 2)} tokens rewarded to 2 employees`).waitFor();

    expect(statuses.length).toBeGreaterThanOrEqual(2);
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(await companyBalance()).toBe(OPENING + ISSUED - REWARD * 2);
    const received = await ledgerRows('employee_issued');
    expect(received.map((row) => [row.employee_id, row.amount]).sort()).toEqual(
      employeeIds.map((id) => [id, REWARD]).sort(),
    );
  });
});
