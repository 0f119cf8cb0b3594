import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectPath, openSession, type Session, signIn, sessionPerTest } from './browser';
import { seriousViolations } from './pages';

let browser: Browser;
let session: Session;
let page: Page;

// A duplicate refused with 409 is part of the journey; nothing else may fail.
sessionPerTest((opened) => ({ browser, session, page } = opened), {
  allowProblem: (problem) => problem.includes('status of 409'),
});

/** Codes unique to this run, so the journey also works against a long-lived server. */
const suffix = Date.now().toString(36).toUpperCase().slice(-6);
const companyCode = `E2E${suffix}`;
const merchantCode = `M${suffix}`;
const terminalCode = `T${suffix}`;

const row = (name: string) => page.getByRole('row', { name: new RegExp(name) });

async function rowAction(name: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** Places a 5-token order for the demo employee ACME/E0001 with a terminal key. */
const placeOrder = (key: string, idempotencyKey: string) =>
  page.evaluate(
    async ({ key, idempotencyKey }) => {
      const response = await fetch('/api/v1/orders', {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': idempotencyKey,
        },
        body: JSON.stringify({
          company_code: 'ACME',
          employee_id: 'E0001',
          order_type: 'dine_in',
          items: [{ name: 'Tea', quantity: 1, unit_tokens: 5 }],
        }),
      });
      return response.status;
    },
    { key, idempotencyKey },
  );

describe('the admin sets up the programme', () => {
  it('creates a company, issues it tokens and gives it a company admin', async () => {
    await signIn(page, 'admin');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Companies' })
      .click();
    await expectPath(page, '/companies');

    await page.getByRole('button', { name: 'Add company' }).click();
    const form = page.getByRole('dialog');
    await form.getByLabel('Company code').fill('X!');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText('Code must be 3 to 12 characters').waitFor();
    await form.getByText('Enter a name').waitFor();
    await form.getByLabel('Company code').fill(companyCode);
    await form.getByLabel('Company name').fill(`E2E Foods ${suffix}`);
    await form.getByLabel('Reset day').fill('10');
    await form.getByLabel('Initial token').fill('5000');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByText(`E2E Foods ${suffix} created`).waitFor();
    // The next step is offered; later, and the list flags the company as having no admin.
    const next = page.getByRole('dialog', { name: `E2E Foods ${suffix} is created` });
    await next.getByRole('button', { name: 'Add its admin' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await next.getByRole('button', { name: 'Later' }).click();
    await row(companyCode).getByText('5,000').first().waitFor();
    await row(companyCode)
      .getByRole('button', { name: `E2E Foods ${suffix} has no admin: add one` })
      .waitFor();

    await rowAction(`E2E Foods ${suffix}`, 'Issue tokens');
    const issue = page.getByRole('dialog');
    await issue.getByLabel('Amount').fill('12345');
    await issue.getByTestId('balance-after').getByText('17,345').waitFor();
    await issue.getByRole('button', { name: 'Issue tokens' }).click();
    // The confirm step names the company and the amount; Enter on its focused button confirms.
    await issue
      .getByRole('button', { name: `Issue 12,345 tokens to E2E Foods ${suffix}` })
      .waitFor();
    await page.keyboard.press('Enter');
    await page.getByText(`12,345 tokens issued to E2E Foods ${suffix}`).waitFor();
    await row(companyCode).getByText('17,345').waitFor();

    await rowAction(`E2E Foods ${suffix}`, 'Company admins');
    const admins = page.getByRole('dialog');
    await admins.getByText('This company has no admin yet.').waitFor();
    await admins.getByRole('button', { name: 'Add company admin' }).click();
    await admins.getByLabel('Username').fill(`e2e.${suffix.toLowerCase()}`);
    await admins.getByLabel('Email').fill(`admin.${suffix.toLowerCase()}@e2e.test`);
    // An invitation, the default: the admin gets a one-time link to hand over.
    await admins.getByRole('button', { name: 'Create and invite' }).click();
    const link = await admins.getByLabel('Set-password link').inputValue();
    expect(link).toMatch(/\/set-password#token=[\w-]{43}$/);
    expect(await seriousViolations(page)).toEqual([]);
    await admins.getByRole('button', { name: 'Done' }).click();
    await admins.getByRole('cell', { name: `e2e.${suffix.toLowerCase()}`, exact: true }).waitFor();
    // No password yet: the row says so, and its menu sends a new link (the first one then ends).
    await admins.getByRole('row', { name: /Invitation pending/ }).waitFor();
    await rowAction(`e2e.${suffix.toLowerCase()}`, 'Resend invitation');
    await admins.getByRole('heading', { name: 'New set-password link' }).waitFor();
    const newLink = await admins.getByLabel('Set-password link').inputValue();
    expect(newLink).toMatch(/\/set-password#token=[\w-]{43}$/);
    expect(newLink).not.toBe(link);
    expect(await seriousViolations(page)).toEqual([]);
    await admins.getByRole('button', { name: 'Done' }).click();
    await page.keyboard.press('Escape');

    // The new admin opens the first link in their own browser: it no longer works; the new one
    // sets a password once, and they sign in.
    const theirs = await openSession(browser);
    try {
      await theirs.page.goto(link);
      await theirs.page
        .getByText('This link is invalid, has expired or was already used')
        .waitFor();
      // Only the fragment differs: load the page afresh, as a click on the link in a mail would.
      await theirs.page.goto(newLink);
      await theirs.page.reload();
      await theirs.page
        .getByText(`Account e2e.${suffix.toLowerCase()}.`, { exact: false })
        .waitFor();
      expect(await seriousViolations(theirs.page)).toEqual([]);
      await theirs.page.getByLabel('Password', { exact: true }).fill('Chosen@2026');
      await theirs.page.getByLabel('Confirm password').fill('Chosen@2026');
      await theirs.page.getByRole('button', { name: 'Set password' }).click();
      await theirs.page.getByText('Your password is set').waitFor();
      // The same link again, in a fresh load of the page: spent.
      await theirs.page.reload();
      await theirs.page
        .getByText('This link is invalid, has expired or was already used')
        .waitFor();
      await signIn(theirs.page, `e2e.${suffix.toLowerCase()}`, 'Chosen@2026');
      expect(theirs.problems.filter((problem) => !problem.includes('status of 410'))).toEqual([]);
    } finally {
      await theirs.context.close();
    }

    // The filter and page are in the URL: a reload shows the same view.
    // The filter (in the toolbar), not the Status column's sort button.
    await page.getByRole('search').getByRole('button', { name: 'Status' }).click();
    await page.getByRole('menuitemradio', { name: 'Active', exact: true }).click();
    await expectPath(page, '/companies?status=active');
    await page.reload();
    await row(companyCode).waitFor();
    await page
      .getByRole('search')
      .getByRole('button', { name: /^Status/ })
      .getByText('Active')
      .waitFor();
  });

  it('creates a merchant and a terminal whose key, shown once, works until rotated', async () => {
    await signIn(page, 'admin');
    await page.goto('/merchants');
    await page.getByRole('button', { name: 'Add merchant' }).click();
    const form = page.getByRole('dialog');
    await form.getByLabel('Merchant code').fill(merchantCode);
    await form.getByLabel('Merchant name').fill(`E2E Bar ${suffix}`);
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Created successfully.').waitFor();

    await rowAction(`E2E Bar ${suffix}`, 'Terminals');
    await page.waitForURL(/\/terminals\?merchant_id=\d+$/);
    await page.getByRole('button', { name: 'Add terminal' }).click();
    const terminalForm = page.getByRole('dialog');
    await terminalForm
      .getByRole('combobox', { name: 'Merchant' })
      .getByText(`E2E Bar ${suffix} (${merchantCode})`)
      .waitFor();
    await terminalForm.getByLabel('Terminal code').fill(terminalCode);
    await terminalForm.getByLabel('Terminal name').fill('Front');
    await terminalForm.getByRole('button', { name: 'Create' }).click();

    const reveal = page.getByRole('dialog', { name: `Terminal ${terminalCode} created` });
    await reveal.getByText('This key will not be shown again.', { exact: false }).waitFor();
    const key = await reveal.getByLabel('API key').inputValue();
    expect(key).toMatch(/^tk_/);
    // The key dialog opens only here, after a creation: screens.spec.ts cannot scan it.
    expect(await seriousViolations(page)).toEqual([]);
    await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: session.baseURL,
    });
    await reveal.getByRole('button', { name: 'Copy' }).click();
    await reveal.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await reveal.getByRole('button', { name: 'I have saved the key' }).click();
    await row(terminalCode).waitFor();
    expect(await page.content()).not.toContain(key);

    expect(await placeOrder(key, `e2e-${suffix}-1`)).toBe(201);

    await rowAction(terminalCode, 'Rotate key');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate key' }).click();
    const rotated = page.getByRole('dialog', { name: `New key for terminal ${terminalCode}` });
    const newKey = await rotated.getByLabel('API key').inputValue();
    expect(newKey).not.toBe(key);
    await rotated.getByRole('button', { name: 'I have saved the key' }).click();

    expect(await placeOrder(key, `e2e-${suffix}-2`)).toBe(401);
    expect(await placeOrder(newKey, `e2e-${suffix}-3`)).toBe(201);
  });

  it('lets Group HR manage companies but not issue tokens, and keeps it from merchants', async () => {
    await signIn(page, 'grouphr');
    await page.goto('/companies');
    await page.getByRole('button', { name: 'Actions for Acme Corporation' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Issue tokens' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.goto('/order-history');
    await page.getByRole('button', { name: /^Company/ }).waitFor();
    expect(await page.getByRole('button', { name: /^Merchant/ }).count()).toBe(0);

    await page.goto('/merchants');
    await expectPath(page, '/error/403');
  });
});
