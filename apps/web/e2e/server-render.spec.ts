import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectPath, type Session, sessionPerTest, signIn } from './browser';

let session: Session;
let page: Page;

sessionPerTest((opened) => ({ session, page } = opened));

const windowSentence = () => page.getByTestId('dashboard-window');

/** The server-rendered page's wrapper, inert until the app's render replaces it. */
const serverMarkup = () => page.locator('#root > div[inert]');

// Decision 0050: the API draws a signed-in user's /dashboard with its figures; the app takes it
// over with the same figures, asking for none of them again.
describe('the dashboard drawn by the server', () => {
  it('is whole without any JavaScript: the window sentence, the totals and the summary', async () => {
    await signIn(page, 'admin');
    const noScript = await session.context.browser()!.newContext({
      baseURL: session.baseURL,
      javaScriptEnabled: false,
      storageState: await session.context.storageState(),
    });
    try {
      const bare = await noScript.newPage();
      await bare.goto('/dashboard?month=2026-11');
      await expect
        .poll(() => bare.getByTestId('dashboard-window').textContent())
        .toContain('1 November 2026 – 30 November 2026');
      await bare.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      await bare.getByText('Total tokens from admin').first().waitFor();
      await bare.getByRole('heading', { level: 2, name: /summary/i }).waitFor();
      expect(await bare.locator('#root > div[inert]').count()).toBe(1);
      // The answers it was drawn from are there for the app.
      expect(await bare.locator('script#server-queries').count()).toBe(1);
    } finally {
      await noScript.close();
    }
  });

  it('is taken over by the app with the same figures, fetching none of them again', async () => {
    await signIn(page, 'admin');
    const asked: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/v1/dashboard') || pathname === '/api/v1/iam/self-info') {
        asked.push(pathname);
      }
    });
    const response = await page.goto('/dashboard');
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    const drawn = await windowSentence().textContent();
    expect(drawn).toMatch(/^Chart: 1 \w+ \d{4} – \d+ \w+ \d{4}/);
    // Taken over: the inert wrapper is gone, the controls answer.
    await expect.poll(() => serverMarkup().count()).toBe(0);
    expect(await windowSentence().textContent()).toBe(drawn);
    await page.getByRole('button', { name: /Open user menu/ }).click();
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('Escape');
    expect(asked).toEqual([]);

    // Another month opened by its address is drawn by the server too.
    await page.goto('/dashboard?month=2026-10');
    await expect.poll(() => serverMarkup().count()).toBe(0);
    await page.getByRole('button', { name: /Open user menu/ }).waitFor();
    expect(await windowSentence().textContent()).toContain('1 October 2026 – 31 October 2026');
    expect(asked).toEqual([]);
  });

  it('draws it in Chinese for the lang cookie, and signs out as before', async () => {
    await signIn(page, 'admin');
    await session.context.addCookies([{ name: 'lang', value: 'zh', url: session.baseURL }]);
    await page.goto('/dashboard');
    expect(await page.locator('html').getAttribute('lang')).toBe('zh');
    await page.getByRole('heading', { level: 1, name: '仪表盘' }).waitFor();
    await expect.poll(() => serverMarkup().count()).toBe(0);
    await page.getByRole('button', { name: /打开用户菜单/ }).click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await expectPath(page, '/login');
    // Signed out, /dashboard is the empty page again, sent to sign in.
    await page.goto('/dashboard');
    await expectPath(page, '/login?from=%2Fdashboard');
  });
});
