// Step-up in place (issue 45 item 3, DESIGN 9, decision 0083): on a server of its own whose window
// is 2 seconds (STEP_UP_WINDOW_SECONDS), Group HR signs in, waits past the window and approves a
// pending request; the API asks for a fresh proof (401 REAUTHENTICATION_REQUIRED) and the screen
// asks for the password over the page. A wrong one is refused in the dialog; the right one sends
// the very same approval again (same Idempotency-Key) and it is applied once. In English and in
// Chinese; Escape cancels and nothing is applied. Then a company admin's new spending rules,
// confirmed after their preview: Escape leaves the editor as it was typed, nothing saved; the
// password then saves them once. Axe clean, no console error.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CATALOGUE, VALIDATION_MESSAGES } from '@app/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../api/test/server-process';
import { apiSession, expectStatus } from './api';
import { DEMO_PASSWORD, sessionPerTest, signIn } from './browser';
import { DIST_DIR } from './build';
import { seriousViolations, waitForScreen } from './pages';
import { texts, type Language } from './texts';

const WINDOW_SECONDS = 2;
/** This server's threshold: the journey's own requests of 50 reach it. */
const THRESHOLD = 50;
const SHOTS = '/tmp/step-up-shots';

interface Employee {
  id: number;
  available_tokens: number;
}
interface Approval {
  id: number;
  status: string;
  payload: { note?: string | null };
}

let server: ServerProcess;
let dataDir = '';
let page: Page;
let staff: Employee[] = [];
/** The pending request each test approves (or leaves), by the note it carries. */
const requested = new Map<string, number>();

const api = (username: string) => apiSession(username, DEMO_PASSWORD, server.baseURL);

async function walletsOf(ids: number[]): Promise<number[]> {
  const acme = await api('acme.admin');
  return Promise.all(
    ids.map(
      async (id) =>
        expectStatus(await acme<{ data: Employee }>('GET', `/employees/${id}`), 200).data
          .available_tokens,
    ),
  );
}

async function approvalsWith(status: string): Promise<Approval[]> {
  const hr = await api('grouphr');
  return expectStatus(
    await hr<{ data: Approval[] }>('GET', `/approvals?status=${status}&page_size=50`),
    200,
  ).data;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dataDir = mkdtempSync(path.join(tmpdir(), 'web-e2e-step-up-'));
  // As e2e/global-setup.ts starts the shared one (global-setup has built the web app and the
  // API's bundle), with a window short enough to wait past.
  server = await startServer(
    {
      DATA_DIR: dataDir,
      SERVE_WEB: 'true',
      WEB_DIST_DIR: DIST_DIR,
      DEMO_DATA: 'true',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      STEP_UP_WINDOW_SECONDS: String(WINDOW_SECONDS),
    },
    { from: 'bundle' },
  );
  const admin = await api('admin');
  expectStatus(
    await admin('PUT', '/sys/approval-policy', {
      top_up_threshold: null,
      distribution_threshold: THRESHOLD,
    }),
    200,
  );
  const acme = await api('acme.admin');
  staff = expectStatus(
    await acme<{ data: Employee[] }>('GET', '/employees?status=active&page_size=10'),
    200,
  ).data.slice(0, 2);
  expect(staff).toHaveLength(2);
  for (const note of ['step-up en', 'step-up zh', 'step-up escape']) {
    // A request reaching the threshold asks for a step-up too: each is made right after its
    // sign-in, well within the 2 seconds.
    const requester = await api('acme.admin');
    const answer = await requester<{ data: { approval: { id: number } } }>(
      'POST',
      '/tokens/topup-token/employees',
      {
        items: [
          { employee_id: staff[0]!.id, amount: 30 },
          { employee_id: staff[1]!.id, amount: 20 },
        ],
        note,
      },
    );
    requested.set(note, expectStatus(answer, 202).data.approval.id);
  }
}, 240_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

sessionPerTest((opened) => ({ page } = opened), { baseURL: () => server.baseURL });

/** Every approve request of `id` the page sends: its Idempotency-Key and its answer's status. */
function watchApprove(id: number): { key: string | undefined; status: number }[] {
  const seen: { key: string | undefined; status: number }[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (request.method() === 'POST' && request.url().endsWith(`/api/v1/approvals/${id}/approve`)) {
      seen.push({ key: request.headers()['idempotency-key'], status: response.status() });
    }
  });
  return seen;
}

/** Waits until the window from `since` has passed, with some room. */
const pastTheWindow = (since: number) =>
  page.waitForTimeout(Math.max(0, since + WINDOW_SECONDS * 1000 + 700 - Date.now()));

/** Group HR signed in, on the approvals screen in `lng`, once the window has passed. */
async function approvalsPastTheWindow(lng: Language) {
  const t = texts(lng);
  await signIn(page, 'grouphr');
  const signedInAt = Date.now();
  await page.context().addCookies([{ name: 'lang', value: lng, url: server.baseURL }]);
  await page.goto('/approvals');
  await waitForScreen(page, t('nav.approvals'));
  await pastTheWindow(signedInAt);
}

/** Presses approve on the request carrying `note` and confirms; the step-up dialog comes. */
async function approve(lng: Language, note: string) {
  const t = texts(lng);
  const card = page.getByTestId('approval-card').filter({ hasText: note });
  await card.getByRole('button', { name: t('approvals.approve') }).click();
  const confirm = page.getByRole('alertdialog', { name: t('approvals.approve_title') });
  await confirm.getByRole('button', { name: t('approvals.approve') }).click();
  const dialog = page.getByRole('dialog', { name: t('step_up.title') });
  await dialog.waitFor();
  return { card, dialog };
}

describe('step-up before approving', () => {
  it.each(['en', 'zh'] as const)(
    'a wrong password is refused in place, the right one approves the same request once (%s)',
    async (lng) => {
      const t = texts(lng);
      const note = `step-up ${lng}`;
      const id = requested.get(note)!;
      const before = await walletsOf(staff.map((e) => e.id));
      await approvalsPastTheWindow(lng);
      const sent = watchApprove(id);
      const { card, dialog } = await approve(lng, note);

      const field = dialog.getByLabel(t('step_up.password'), { exact: true });
      await expect.poll(() => field.isEnabled()).toBe(true);
      // Ready to type into: the field has the focus.
      await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await dialog.textContent()).toContain(t('step_up.description_password'));
      expect(await seriousViolations(page), `step-up dialog ${lng}`).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/dialog.${lng}.png` });

      await field.fill('not-the-password');
      await dialog.getByRole('button', { name: t('step_up.confirm') }).click();
      const refusal = dialog.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.textContent()).toBe(
        VALIDATION_MESSAGES['v.current_password_invalid'][lng],
      );
      await page.screenshot({ path: `${SHOTS}/wrong.${lng}.png` });
      // Nothing was sent again for a wrong proof, and nothing moved.
      expect(sent.map((s) => s.status)).toEqual([401]);
      expect(await walletsOf(staff.map((e) => e.id))).toEqual(before);

      await field.fill(DEMO_PASSWORD);
      if (lng === 'en') await field.press('Enter');
      else await dialog.getByRole('button', { name: t('step_up.confirm') }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText(t('approvals.approved_toast', { total: String(THRESHOLD) })).waitFor();
      await expect.poll(() => card.count()).toBe(0);

      // The very same request, twice: refused for the step-up, then applied, with one key.
      expect(sent).toHaveLength(2);
      expect(sent.map((s) => s.status)).toEqual([401, 200]);
      expect(sent[0]!.key).toBeTruthy();
      expect(sent[1]!.key).toBe(sent[0]!.key);
      // Applied once: each payee got its amount one time.
      expect(await walletsOf(staff.map((e) => e.id))).toEqual([before[0]! + 30, before[1]! + 20]);
      expect((await approvalsWith('approved')).map((a) => a.id)).toContain(id);
    },
  );

  it('Escape cancels the step-up, and nothing is applied', async () => {
    const t = texts('en');
    const note = 'step-up escape';
    const id = requested.get(note)!;
    const before = await walletsOf(staff.map((e) => e.id));
    await approvalsPastTheWindow('en');
    const sent = watchApprove(id);
    const { card, dialog } = await approve('en', note);
    await expect.poll(() => dialog.getByLabel(t('step_up.password')).isEnabled()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // The refusal comes back to the action, said as the API says it.
    await page.getByText(ERROR_CATALOGUE.REAUTHENTICATION_REQUIRED.en).waitFor();
    await page.screenshot({ path: `${SHOTS}/cancelled.en.png` });
    // The request is still there to approve, it was sent once and nothing moved.
    // (Enabled again once the refused call has settled: the refusal may be said a frame before.)
    await expect
      .poll(() => card.getByRole('button', { name: t('approvals.approve') }).isEnabled())
      .toBe(true);
    expect(sent.map((s) => s.status)).toEqual([401]);
    expect(await walletsOf(staff.map((e) => e.id))).toEqual(before);
    expect((await approvalsWith('pending')).map((a) => a.id)).toContain(id);
  });
});

describe('step-up before saving spending rules', () => {
  it('Escape keeps the editor as typed and saves nothing; the password then saves the rules once', async () => {
    const t = texts('en');
    const acme = await api('acme.admin');
    const companyId = expectStatus(
      await acme<{ data: { company_id: number } }>('GET', '/iam/self-info'),
      200,
    ).data.company_id;
    const rulesOf = async () =>
      expectStatus(
        await acme<{ data: { scheduled: { daily_limit: number | null }[] } }>(
          'GET',
          `/companies/${companyId}/spending-rules`,
        ),
        200,
      ).data.scheduled;
    const scheduledBefore = await rulesOf();
    const saves: number[] = [];
    page.on('response', (response) => {
      const request = response.request();
      if (
        request.method() === 'PUT' &&
        request.url().endsWith(`/api/v1/companies/${companyId}/spending-rules`)
      ) {
        saves.push(response.status());
      }
    });

    await signIn(page, 'acme.admin');
    const signedInAt = Date.now();
    await page
      .getByRole('navigation', { name: t('nav.label') })
      .getByRole('link', { name: t('spending_rules.nav') })
      .click();
    await waitForScreen(page, t('spending_rules.nav'));
    await page.getByRole('button', { name: t('spending_rules.section.new_version') }).click();
    const editor = page.getByRole('dialog', { name: t('spending_rules.editor.title') });
    await editor.getByLabel(t('spending_rules.editor.daily_limit')).fill('37');
    await editor.getByRole('button', { name: t('actions.save') }).click();
    await editor.getByTestId('preview-impact').waitFor();
    await pastTheWindow(signedInAt);

    const stepUp = page.getByRole('dialog', { name: t('step_up.title') });
    const confirm = editor.getByRole('button', { name: t('spending_rules.editor.confirm') });
    await confirm.click();
    await stepUp.waitFor();
    const field = stepUp.getByLabel(t('step_up.password'), { exact: true });
    await expect.poll(() => field.isEnabled()).toBe(true);
    expect(await seriousViolations(page), 'step-up over the editor').toEqual([]);
    await page.screenshot({ path: `${SHOTS}/over-editor.en.png` });
    await page.keyboard.press('Escape');
    await stepUp.waitFor({ state: 'hidden' });
    // The editor is still open on its preview, with what was typed; nothing was saved.
    expect(await editor.isVisible()).toBe(true);
    expect(await editor.getByTestId('preview-impact').isVisible()).toBe(true);
    expect(await editor.textContent()).toContain(
      t('spending_rules.words.daily_limit_other', { amount: '37' }),
    );
    expect(saves).toEqual([401]);
    expect(await rulesOf()).toEqual(scheduledBefore);

    await confirm.click();
    await stepUp.waitFor();
    await expect.poll(() => field.isEnabled()).toBe(true);
    await field.fill(DEMO_PASSWORD);
    await field.press('Enter');
    await editor.waitFor({ state: 'hidden' });
    await page.getByTestId('rules-scheduled').getByText(/37/).first().waitFor();
    expect(saves).toEqual([401, 401, 200]);
    const after = await rulesOf();
    expect(after.filter((r) => r.daily_limit === 37)).toHaveLength(1);
  });
});
