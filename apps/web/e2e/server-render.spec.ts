import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectPath, type Session, sessionPerTest, signIn } from './browser';

let session: Session;
let page: Page;

sessionPerTest((opened) => ({ session, page } = opened));

const windowSentence = () => page.getByTestId('dashboard-window');

/** The server-rendered page's wrapper, closed to the pointer until the app has hydrated it. */
const untakenMarkup = (on: Page = page) =>
  on.locator('#root > div[data-server-rendered][style*="pointer-events"]');

/** A phone's browser, as Lighthouse's mobile preset presents itself. */
const PHONE_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Mobile Safari/537.36';

/**
 * Keeps, in the page, the window sentence the server drew, taken before any script runs: after
 * the takeover it is still the one on screen if the app adopted the drawn nodes (hydration,
 * decision 0051), not if it drew new ones.
 */
const keepDrawnSentence = (on: Page) =>
  on.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      (window as unknown as { drawn?: Element | null }).drawn = document.querySelector(
        '[data-testid=dashboard-window]',
      );
    });
  });
const isDrawnSentenceKept = (on: Page) =>
  on.evaluate(() => {
    const drawn = (window as unknown as { drawn?: Element | null }).drawn;
    return !!drawn && drawn === document.querySelector('[data-testid=dashboard-window]');
  });

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
        .toContain('1 November 2026 – ');
      // Each company's token month of November: ACME's from the 1st, the latest INITECH's to
      // 30 December (it resets on the 31st, the 30th in November; decision 0088), and the month.
      expect(await bare.getByTestId('dashboard-window').textContent()).toContain(
        '1 November 2026 – 30 December 2026: each company’s token month counted for November 2026',
      );
      await bare.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      await bare.getByText('Total tokens from admin').first().waitFor();
      await bare.getByRole('heading', { level: 2, name: /summary/i }).waitFor();
      expect(await untakenMarkup(bare).count()).toBe(1);
      // The answers it was drawn from are there for the app.
      expect(await bare.locator('script#server-queries').count()).toBe(1);
    } finally {
      await noScript.close();
    }
  });

  it('is hydrated by the app with the same figures, fetching none of them again', async () => {
    await signIn(page, 'admin');
    await keepDrawnSentence(page);
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
    expect(drawn).toMatch(/^\d+ \w+ \d{4} – \d+ \w+ \d{4}: each company’s token month counted/);
    // Taken over: the drawn nodes are the app's now (hydrated, not drawn again), and answer.
    await expect.poll(() => untakenMarkup().count()).toBe(0);
    expect(await isDrawnSentenceKept(page)).toBe(true);
    expect(await windowSentence().textContent()).toBe(drawn);
    // Every bar with a height has a width too, whatever the window's number of days (a padding
    // in percent of the plot once left none: decision 0088).
    const bars = await page.getByTestId('chart-day').evaluateAll((days) =>
      days.flatMap((day) =>
        [...day.querySelectorAll<HTMLElement>('[style*="height"]')].map((bar) => {
          const { width, height } = bar.getBoundingClientRect();
          return { width, height };
        }),
      ),
    );
    expect(bars.filter((bar) => bar.height > 0).length).toBeGreaterThan(0);
    expect(bars.filter((bar) => bar.height > 0 && bar.width < 2)).toEqual([]);
    expect(
      await page.locator('#root > div[data-server-rendered]').getAttribute('data-server-rendered'),
    ).toBe('wide');
    await page.getByRole('button', { name: /Open user menu/ }).click();
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('Escape');
    expect(asked).toEqual([]);

    // Another month opened by its address is drawn by the server too.
    await page.goto('/dashboard?month=2026-10');
    await expect.poll(() => untakenMarkup().count()).toBe(0);
    expect(await isDrawnSentenceKept(page)).toBe(true);
    await page.getByRole('button', { name: /Open user menu/ }).waitFor();
    // From ACME's first day (it resets on the 1st) to the last day counted (decision 0088).
    expect(await windowSentence().textContent()).toContain('1 October 2026 – ');
    expect(await windowSentence().textContent()).toContain('October 2026, from its own reset day');
    expect(asked).toEqual([]);
  });

  it('draws it in Chinese for the lang cookie, and signs out as before', async () => {
    await signIn(page, 'admin');
    await session.context.addCookies([{ name: 'lang', value: 'zh', url: session.baseURL }]);
    // Three times in CI under load (stops 39, 40 and 50), the menu did not open on the press, and
    // neither a phone nor a CPU slowed 4–20 times brings it here. What the page said and showed
    // then is printed on one line (CI's digest keeps the first line of a failure only), and the
    // button is pressed again, as a person would: the sign-out below is what this test is about.
    // The likely cause, fixed with issue 41 item 6: the page was opened to the pointer at the
    // root's first commit, before the frame's boundary around the header had hydrated, and a
    // press there could be lost; it now opens once that boundary is on screen, and a press made
    // before is made again (the test above). If the line is printed again, the cause is elsewhere.
    const seen: string[] = [];
    page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => seen.push(`request failed: ${request.url()}`));
    page.on('console', (message) => {
      if (message.type() === 'error') seen.push(`console: ${message.text()}`);
    });
    const shown = () =>
      page.evaluate(() => ({
        buttons: [...document.querySelectorAll('header button')].map((b) => ({
          text: b.textContent,
          expanded: b.getAttribute('aria-expanded'),
          state: b.getAttribute('data-state'),
        })),
        menu: (document.querySelector('[role="menu"]') as HTMLElement | null)?.innerText ?? null,
        focused: document.activeElement?.outerHTML.slice(0, 160) ?? null,
      }));
    await keepDrawnSentence(page);
    await page.goto('/dashboard');
    expect(await page.locator('html').getAttribute('lang')).toBe('zh');
    await page.getByRole('heading', { level: 1, name: '仪表盘' }).waitFor();
    await expect.poll(() => untakenMarkup().count()).toBe(0);
    expect(await isDrawnSentenceKept(page)).toBe(true);
    const menuButton = page.getByRole('button', { name: /打开用户菜单/ });
    await menuButton.click();
    const opened = await page
      .getByRole('menu')
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    if (!opened) {
      console.error(
        `server-render.spec: the user menu did not open on the first press; the page: ${JSON.stringify(await shown())}; it said: ${JSON.stringify(seen)}`,
      );
      await menuButton.click();
    }
    await page
      .getByRole('menuitem', { name: '退出登录' })
      .click()
      .catch(async (error: unknown) => {
        throw new Error(
          `the menu's sign-out never came; the page: ${JSON.stringify(await shown())}; it said: ${JSON.stringify(seen)}; ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    await expectPath(page, '/login');
    // Signed out, /dashboard is the empty page again, sent to sign in.
    await page.goto('/dashboard');
    await expectPath(page, '/login?from=%2Fdashboard');
  });

  // Issue 41 item 6: on a busy machine the first press on the user menu or on a sidebar group,
  // made while the drawn page took none, was lost. The app is held before it hydrates (its
  // catalogue's answer waits), the press is made on the drawn page, and the app then let go.
  it.each([
    {
      control: 'the user menu, which opens',
      target: () => page.getByRole('button', { name: /Open user menu/ }),
      answered: () => page.getByRole('menu').waitFor(),
    },
    {
      control: 'the Token Transaction group, which closes',
      target: () => page.getByRole('button', { name: 'Token Transaction' }),
      answered: () =>
        expect
          .poll(() =>
            page.getByRole('button', { name: 'Token Transaction' }).getAttribute('aria-expanded'),
          )
          .toBe('false'),
    },
  ])('answers a press made before it took one: $control', async ({ target, answered }) => {
    await signIn(page, 'admin');
    let letGo = () => {};
    const held = new Promise<void>((resolve) => (letGo = resolve));
    await page.route('**/locales/en/common.json?*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/dashboard', { waitUntil: 'domcontentloaded' });
    const box = await target().boundingBox();
    expect(box).not.toBeNull();
    expect(await target().getAttribute('aria-expanded')).not.toBe('false');
    // Drawn, and closed to the pointer: a press now reaches nothing of the page.
    expect(await untakenMarkup().count()).toBe(1);
    await page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2);
    letGo();
    await expect.poll(() => untakenMarkup().count()).toBe(0);
    await answered();
  });

  it.each([
    { name: 'a phone, drawn for a phone', width: 390, drawnFor: 'phone', sidebar: 0 },
    // A wrong guess: hydrated as drawn, then redrawn for the real width, without an error.
    { name: "a wide window with a phone's user agent", width: 1280, drawnFor: 'phone', sidebar: 1 },
  ])('on $name, is hydrated as drawn (decision 0051)', async ({ width, drawnFor, sidebar }) => {
    // A company admin: the dashboard of one company, no summary.
    await signIn(page, 'acme.admin');
    const phone = await session.context.browser()!.newContext({
      baseURL: session.baseURL,
      userAgent: PHONE_USER_AGENT,
      viewport: { width, height: 844 },
      storageState: await session.context.storageState(),
    });
    try {
      const on = await phone.newPage();
      const problems: string[] = [];
      on.on('pageerror', (error) => problems.push(error.message));
      on.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      await keepDrawnSentence(on);
      await on.goto('/dashboard');
      const wrapper = on.locator('#root > div[data-server-rendered]');
      expect(await wrapper.getAttribute('data-server-rendered')).toBe(drawnFor);
      await expect.poll(() => untakenMarkup(on).count()).toBe(0);
      expect(await isDrawnSentenceKept(on)).toBe(true);
      await expect.poll(() => on.locator('[data-slot=sidebar]').count()).toBe(sidebar);
      // The sidebar opens from the header, as a sheet on the phone.
      if (width < 768) {
        await on.getByRole('button', { name: 'Toggle sidebar' }).click();
        await on.getByRole('dialog').getByRole('link', { name: 'Dashboard' }).waitFor();
      }
      // Nothing horizontal to scroll on the phone.
      expect(await on.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      expect(problems).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
