// The till scans the wallet's pay code with a camera (issue 43, DESIGN 8): an employee's wallet
// shows its code; the till, on a second page in a browser whose camera is a video of that very QR
// (Chromium's fake capture: --use-fake-device-for-media-stream --use-file-for-fake-video-capture),
// scans it, charges, and the wallet then shows the new balance. In English and in Chinese, on a
// phone (390×844), axe clean, no console error.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession, expectStatus } from './api';
import { launchBrowser, openSession, signIn, type Session } from './browser';
import { seriousViolations, waitForScreen } from './pages';
import { texts, type Language } from './texts';

const PASSWORD = 'Wallet@2026';
/** Unique to this run, so the journey also works against a long-lived server. */
const suffix = Date.now().toString(36).slice(-6);
/** Where the screenshots go when asked for (`TILL_SCREENSHOTS=dir`). */
const SHOTS = process.env.TILL_SCREENSHOTS;
const PHONE = { width: 390, height: 844 };

/** The fake camera's frame: a phone held up to the till, its QR in the middle. */
const FRAME = { width: 640, height: 480, qr: 360 };
/** Frames in the file (Chromium plays it in a loop). */
const FRAMES = 10;

const workDir = mkdtempSync(path.join(tmpdir(), 'till-camera-'));
const videoOf = (lng: Language) => path.join(workDir, `pay-code-${lng}.y4m`);

let wallets: Browser;
const tills: Browser[] = [];
const sessions: Session[] = [];

beforeAll(async () => {
  wallets = await launchBrowser();
});

afterAll(async () => {
  for (const session of sessions) await session.context.close().catch(() => undefined);
  for (const browser of [wallets, ...tills]) await browser?.close();
  rmSync(workDir, { recursive: true, force: true });
});

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * The luma of the wallet's QR as the phone draws it (its own SVG, painted on a white frame in the
 * page): one 8-bit plane, FRAME.width × FRAME.height.
 */
async function lumaOfDrawnQr(phone: Page): Promise<Buffer> {
  const base64 = await phone.getByTestId('pay-code-qr').evaluate(async (svg, frame) => {
    const markup = new XMLSerializer().serializeToString(svg);
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = frame.width;
    canvas.height = frame.height;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, frame.width, frame.height);
    context.imageSmoothingEnabled = false;
    context.drawImage(
      image,
      (frame.width - frame.qr) / 2,
      (frame.height - frame.qr) / 2,
      frame.qr,
      frame.qr,
    );
    const { data } = context.getImageData(0, 0, frame.width, frame.height);
    let binary = '';
    for (let i = 0; i < data.length; i += 4) {
      // BT.601 luma, full range (the file's colour space is 420jpeg).
      const y = Math.round(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
      binary += String.fromCharCode(y);
    }
    return btoa(binary);
  }, FRAME);
  return Buffer.from(base64, 'base64');
}

/** A YUV4MPEG2 video (4:2:0, grey) of `luma` repeated: what Chromium's fake camera plays. */
function writeY4m(file: string, luma: Buffer) {
  const { width, height } = FRAME;
  expect(luma.length).toBe(width * height);
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`),
      ...Array.from({ length: FRAMES }, () => frame),
    ]),
  );
}

/** An employee of ACME with `tokens` and a sign-in, through the API (other journeys drive this). */
async function employeeWithSignIn(lng: Language, tokens: number) {
  const staff = `C${lng.toUpperCase()}${suffix}`;
  const username = `camera.${lng}.${suffix}`;
  const acme = await apiSession('acme.admin');
  const employee = expectStatus(
    await acme<{ data: { id: number } }>('POST', '/employees', {
      employee_id: staff,
      name: `Camera ${lng}`,
      status: 'active',
    }),
    201,
  ).data;
  expectStatus(
    await acme('POST', '/tokens/topup-token/employees', {
      items: [{ employee_id: employee.id, amount: tokens }],
    }),
    200,
  );
  const account = await acme('POST', `/employees/${employee.id}/account`, {
    username,
    password: PASSWORD,
    confirm_password: PASSWORD,
  });
  expect([200, 201]).toContain(account.status);
  return { staff, username };
}

describe('the till scans the wallet’s code with its camera', () => {
  it.each(['en', 'zh'] as const)(
    'charges the code a phone shows, and the wallet shows the new balance (%s)',
    async (lng) => {
      const t = texts(lng);
      const { username } = await employeeWithSignIn(lng, 90);

      // The employee's phone registers itself and draws its code.
      const phone = await openSession(wallets);
      sessions.push(phone);
      await signIn(phone.page, username, PASSWORD);
      await phone.context.addCookies([{ name: 'lang', value: lng, url: phone.baseURL }]);
      await phone.page.setViewportSize(PHONE);
      await phone.page.goto('/');
      await waitForScreen(phone.page, t('self_service.title'));
      await expect
        .poll(() => phone.page.getByTestId('wallet-balance').textContent())
        .toContain('90');
      await phone.page.getByRole('button', { name: t('payCode.setup') }).click();
      const qr = phone.page.getByTestId('pay-code-qr');
      await qr.waitFor();

      // The till's browser: its camera plays the file, which exists at launch (the flags are read
      // then) and is written again with the code of the moment right before the scan.
      const video = videoOf(lng);
      writeY4m(video, await lumaOfDrawnQr(phone.page));
      const cameraBrowser = await launchBrowser([
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ]);
      tills.push(cameraBrowser);
      const counter = await openSession(cameraBrowser);
      sessions.push(counter);
      const till = counter.page;
      await counter.context.grantPermissions(['camera'], { origin: counter.baseURL });
      await signIn(till, 'shop.staff');
      await counter.context.addCookies([{ name: 'lang', value: lng, url: counter.baseURL }]);
      await till.setViewportSize(PHONE);
      await till.goto('/till');
      await waitForScreen(till, t('till.title'));
      // The till's own page: no back-office navigation.
      expect(await till.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
      expect(await seriousViolations(till), `till ${lng}`).toEqual([]);

      // The code on the phone's screen now, filmed.
      // (Filmed again if the code turned over while it was being filmed: every 30 s.)
      let drawn = '';
      while (drawn !== (await qr.getAttribute('data-code'))) {
        drawn = (await qr.getAttribute('data-code'))!;
        writeY4m(video, await lumaOfDrawnQr(phone.page));
      }
      expect(drawn).toMatch(/^\d{18}$/);
      await shot(phone.page, `camera-wallet-${lng}-390`);
      await till.getByRole('button', { name: t('till.scan'), exact: true }).click();
      const field = till.getByLabel(t('till.pay_code'), { exact: true });
      await expect.poll(() => field.inputValue(), { timeout: 20_000 }).toBe(drawn);
      // The camera is stopped once the code is read: the scanner is gone.
      await till.getByTestId('camera-scanner').waitFor({ state: 'detached' });
      expect(await till.evaluate(() => document.querySelectorAll('video').length)).toBe(0);

      const keypad = till.getByRole('group', { name: t('till.keypad') });
      for (const digit of '25')
        await keypad.getByRole('button', { name: digit, exact: true }).click();
      await till.getByRole('button', { name: t('till.charge_amount', { amount: '25' }) }).click();
      const outcome = till.getByTestId('charge-outcome');
      await outcome.waitFor();
      expect(await outcome.textContent()).toBe(t('till.approved'));
      expect(await till.getByTestId('charge-balance').textContent()).toBe('65');
      await till.getByTestId('till-order').first().waitFor();
      expect(await seriousViolations(till), `till approved ${lng}`).toEqual([]);
      await shot(till, `camera-till-${lng}-390`);

      // The wallet shows the new balance.
      await phone.page.reload();
      await waitForScreen(phone.page, t('self_service.title'));
      await expect
        .poll(() => phone.page.getByTestId('wallet-balance').textContent())
        .toContain('65');

      for (const session of [phone, counter]) expect(session.problems).toEqual([]);
    },
  );
});
