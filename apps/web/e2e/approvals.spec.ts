// Four-eyes approvals (issue 17 item 1, decision 0039): a distribution at or above the threshold
// waits; Group HR, in English at 1280 wide, sees the count in the sidebar, reads the request as a
// table, approves one (after confirming) and rejects the demo's with a reason; the admin, in
// Chinese at 390 wide, reads the decided ones and edits the policy. Axe clean, no console error.
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { apiSession } from './api';
import { expectPath, sessionPerTest, signIn, type Session } from './browser';
import { seriousViolations, waitForScreen } from './pages';
import { texts } from './texts';

/** The demo's policy (apps/api/src/seed/demo-approvals.ts), put back after the journey. */
const DEMO_POLICY = { top_up_threshold: null, distribution_threshold: 10_000 };
/** This journey's threshold: its own small request reaches it. */
const THRESHOLD = 50;

interface Employee {
  id: number;
  employee_id: string;
  name: string | null;
}

let session: Session;
let page: Page;

sessionPerTest((opened) => ({ session, page } = opened));

afterAll(async () => {
  const admin = await apiSession('admin');
  await admin('PUT', '/sys/approval-policy', DEMO_POLICY);
});

describe('approvals', () => {
  it('Group HR, in English at 1280 wide, approves one request and rejects another', async () => {
    const t = texts('en');
    const admin = await apiSession('admin');
    expect(
      (
        await admin('PUT', '/sys/approval-policy', {
          top_up_threshold: null,
          distribution_threshold: THRESHOLD,
        })
      ).status,
    ).toBe(200);
    const acme = await apiSession('acme.admin');
    const staff = (await acme<{ data: Employee[] }>('GET', '/employees?status=active&page_size=10'))
      .body.data;
    const [first, second] = staff;
    const requested = await acme<{ data: { approval: { id: number; total: number } } }>(
      'POST',
      '/tokens/topup-token/employees',
      {
        items: [
          { employee_id: first!.id, amount: 30 },
          { employee_id: second!.id, amount: 20 },
        ],
        note: 'e2e approvals',
      },
    );
    expect(requested.status).toBe(202);
    const mine = requested.body.data.approval;

    await signIn(page, 'grouphr');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const link = nav.getByRole('link', { name: new RegExp(`^${t('nav.approvals')}`) });
    // The demo's request and this one wait for Group HR.
    await expect.poll(() => link.getByTestId('nav-badge-approvals').innerText()).toMatch(/^[2-9]/);
    await link.click();
    await expectPath(page, '/approvals');
    await waitForScreen(page, t('nav.approvals'));
    expect(await seriousViolations(page), 'approvals en desktop').toEqual([]);

    const card = page.getByTestId('approval-card').filter({ hasText: 'e2e approvals' });
    const table = card.getByRole('table');
    await expect.poll(() => table.innerText()).toContain(first!.name ?? first!.employee_id);
    expect(await card.getByTestId('approval-total').innerText()).toBe(String(mine.total));

    const walletOf = async (id: number) =>
      (await acme<{ data: { available_tokens: number } }>('GET', `/employees/${id}`)).body.data
        .available_tokens;
    const before = await walletOf(first!.id);
    await card.getByRole('button', { name: t('approvals.approve') }).click();
    const confirm = page.getByRole('alertdialog', { name: t('approvals.approve_title') });
    await confirm.getByRole('button', { name: t('approvals.approve') }).click();
    await page.getByText(t('approvals.approved_toast', { total: String(mine.total) })).waitFor();
    await expect.poll(() => card.count()).toBe(0);

    // The demo's request: rejected, with a reason.
    const demo = page.getByTestId('approval-card').filter({ hasText: 'Quarterly team bonus' });
    await demo.getByRole('button', { name: t('approvals.reject') }).click();
    const dialog = page.getByRole('dialog', { name: t('approvals.reject_title') });
    await dialog.getByRole('button', { name: t('approvals.reject') }).click();
    await dialog.getByText('Fill in this field').waitFor();
    await dialog.getByLabel(t('approvals.reason')).fill('Not this quarter');
    expect(await seriousViolations(page), 'reject dialog en desktop').toEqual([]);
    await dialog.getByRole('button', { name: t('approvals.reject') }).click();
    await expect.poll(() => demo.count()).toBe(0);
    await expect.poll(() => link.getByTestId('nav-badge-approvals').count()).toBe(0);

    // Approved: applied once, at that moment.
    expect(await walletOf(first!.id)).toBe(before + 30);
  });

  it('the admin, in Chinese at 390 wide, reads the decided requests and edits the policy', async () => {
    const t = texts('zh');
    await signIn(page, 'admin');
    await session.context.addCookies([{ name: 'lang', value: 'zh', url: session.baseURL }]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard');
    await waitForScreen(page, t('nav.dashboard'));
    await page
      .getByRole('button', { name: t('sidebar.toggle') })
      .first()
      .click();
    const sheet = page.getByRole('dialog', { name: t('sidebar.title') });
    await sheet.getByRole('link', { name: new RegExp(`^${t('nav.approvals')}`) }).click();
    await expectPath(page, '/approvals');
    await waitForScreen(page, t('nav.approvals'));

    await page.getByRole('tab', { name: t('approvals.tab_decided') }).click();
    await expectPath(page, '/approvals?tab=decided');
    await waitForScreen(page, t('nav.approvals'));
    const decided = page.getByTestId('approval-card');
    await expect.poll(() => decided.count()).toBeGreaterThanOrEqual(2);
    const rejected = decided.filter({ hasText: 'Not this quarter' });
    expect(await rejected.innerText()).toContain(t('approvals.statuses.rejected'));
    expect(await seriousViolations(page), 'approvals zh mobile').toEqual([]);

    const policy = page.getByTestId('approval-policy');
    const threshold = policy.getByLabel(t('approvals.distribution_threshold'));
    expect(await threshold.inputValue()).toBe(String(THRESHOLD));
    await threshold.fill(String(DEMO_POLICY.distribution_threshold));
    await policy.getByRole('button', { name: t('actions.save') }).click();
    await page.getByText(t('approvals.policy_saved')).waitFor();
    const admin = await apiSession('admin');
    expect((await admin<{ data: unknown }>('GET', '/sys/approval-policy')).body.data).toMatchObject(
      DEMO_POLICY,
    );
  });
});
