// Two-factor sign-in (DESIGN 4.1) in a real browser against the real server: a fresh Group HR
// user turns TOTP on from the user menu (the code computed here from the key shown on screen),
// signs out, and signs in again with password and code; in English and in Chinese.
import crypto from 'node:crypto';
import * as OTPAuth from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiSession, expectStatus, type ApiCall } from './api';
import { expectPath, launchBrowser, openSession, type Session } from './browser';

const PASSWORD = 'Factor@2026';

/** The code an authenticator app shows for `secret`, `offsetSteps` 30-second steps from now. */
const codeFor = (secret: string, offsetSteps = 0) =>
  OTPAuth.TOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    timestamp: Date.now() + offsetSteps * 30_000,
  });

const WORDS = {
  en: {
    username: 'Username or email',
    password: 'Password',
    signIn: 'Sign in',
    mainNav: 'Main',
    userMenu: /Open user menu/,
    twoFactor: 'Two-factor sign-in',
    setUp: 'Set up two-factor sign-in',
    code: 'Authentication code',
    confirm: 'Confirm and turn on',
    codes: 'Your recovery codes',
    download: 'Download (.txt)',
    done: 'I have saved them',
    isOn: 'Two-factor sign-in is on. 10 recovery codes left.',
    logout: 'Log out',
    verify: 'Verify',
    invalid: 'The code is not valid',
  },
  zh: {
    username: '用户名或邮箱',
    password: '密码',
    signIn: '登录',
    mainNav: '主导航',
    userMenu: /打开用户菜单/,
    twoFactor: '两步验证登录',
    setUp: '设置两步验证登录',
    code: '验证码',
    confirm: '确认并开启',
    codes: '您的恢复码',
    download: '下载（.txt）',
    done: '我已保存',
    isOn: '两步验证登录已开启，剩余 10 个恢复码。',
    logout: '退出登录',
    verify: '验证',
    invalid: '验证码无效',
  },
} as const;

let browser: Browser;
let admin: ApiCall;
let session: Session;
let page: Page;
const created: number[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiSession('admin');
});

afterAll(async () => {
  // The users made here leave the demo as it was for the other journeys.
  for (const id of created) expectStatus(await admin('DELETE', `/users/${id}`), 200);
  await browser?.close();
});

beforeEach(async () => {
  session = await openSession(browser);
  page = session.page;
});

afterEach(async () => {
  await session?.context.close();
  expect(session.problems).toEqual([]);
});

async function newGroupHr(): Promise<{ id: number; username: string }> {
  const username = `tfa.${crypto.randomBytes(3).toString('hex')}`;
  const body = expectStatus<{ data: { user_id: number } }>(
    await admin('POST', '/users', {
      username,
      email: `${username}@e2e.example`,
      password: PASSWORD,
      confirm_password: PASSWORD,
      type: 'super_hr',
      status: 'active',
    }),
    201,
  );
  created.push(body.data.user_id);
  return { id: body.data.user_id, username };
}

async function passwordStep(words: (typeof WORDS)['en' | 'zh'], username: string) {
  await page.goto('/login');
  await page.getByLabel(words.username).fill(username);
  await page.getByLabel(words.password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: words.signIn, exact: true }).click();
}

describe.each(['en', 'zh'] as const)('two-factor sign-in in %s', (language) => {
  const words = WORDS[language];

  it('enrols from the user menu, then signs in with password and code', async () => {
    const user = await newGroupHr();
    await session.context.addCookies([{ name: 'lang', value: language, url: session.baseURL }]);

    // Enrolment: user menu → the page → QR code and key → a code → ten recovery codes.
    await passwordStep(words, user.username);
    await page.getByRole('navigation', { name: words.mainNav }).waitFor();
    await page.getByRole('button', { name: words.userMenu }).click();
    await page.getByRole('menuitem', { name: words.twoFactor }).click();
    await expectPath(page, '/two-factor');
    await page.getByRole('button', { name: words.setUp }).click();
    await page.getByRole('img', { name: /QR|二维码/ }).waitFor();
    const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const enrolmentCode = codeFor(secret);
    await page.getByLabel(words.code).fill(enrolmentCode);
    await page.getByRole('button', { name: words.confirm }).click();

    const codes = page.getByTestId('recovery-codes').getByRole('listitem');
    await page.getByRole('heading', { name: words.codes }).waitFor();
    expect(await codes.count()).toBe(10);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: words.download }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('recovery-codes.txt');
    await page.getByRole('button', { name: words.done }).click();
    await expect(page.getByTestId('two-factor-on').innerText()).resolves.toBe(words.isOn);

    await page.getByRole('button', { name: words.userMenu }).click();
    await page.getByRole('menuitem', { name: words.logout }).click();
    await expectPath(page, '/login');

    // The password alone opens a second step and no session.
    await passwordStep(words, user.username);
    const codeField = page.getByLabel(words.code);
    await codeField.waitFor();
    expect((await page.request.get('/api/v1/iam/self-info')).status()).toBe(401);
    expect((await session.context.cookies()).map((c) => c.name)).not.toContain('sid');

    // The enrolment's code again is refused (used, or out of its window by now).
    await codeField.fill(enrolmentCode);
    await page.getByRole('button', { name: words.verify, exact: true }).click();
    await page.getByRole('alert').filter({ hasText: words.invalid }).waitFor();

    // The next step's code (within the ±1 step window, after the one used) signs in.
    await codeField.fill(codeFor(secret, 1));
    await page.getByRole('button', { name: words.verify, exact: true }).click();
    await page.getByRole('navigation', { name: words.mainNav }).waitFor();
    await expectPath(page, '/dashboard');
    const me = await page.request.get('/api/v1/iam/self-info');
    expect(me.status()).toBe(200);
    expect((await me.json()).data).toMatchObject({ username: user.username, mfa_enabled: true });

    // An admin can reset it (a lost phone): the password alone signs in again.
    expectStatus(await admin('DELETE', `/users/${user.id}/mfa`), 200);
  });
});
