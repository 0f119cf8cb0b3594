import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';

export const DEMO_PASSWORD = 'Demo@2026';

/**
 * Debian's headless shell (package chromium-headless-shell): the same Blink and V8 as
 * /usr/bin/chromium, without the desktop browser around them, which Playwright's own headless runs
 * use too. Chromium is most of the journeys' CPU, and the shell took 15–19% less of it over
 * both lanes (a sign-in alone: a third), decision 0046.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** `CHROMIUM_PATH` when set, else the headless shell when installed, else /usr/bin/chromium. */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** `extraArgs`: flags a journey needs at launch (the till's fake camera, e2e/till-camera.spec.ts). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  baseURL: string;
  /** Uncaught page errors and console errors (failed requests aside, which journeys expect). */
  problems: string[];
}

/**
 * A fresh browser profile (no cookies, no storage) on the app under test: the shared server, or
 * `baseURL`, a server of the journey's own; with
 * `fixedTime` the page's clock (Date) stays at that instant, in UTC, as the server's does on a
 * frozen clock (e2e/visual.ts).
 */
export async function openSession(
  browser: Browser,
  { baseURL = inject('baseURL'), fixedTime }: { baseURL?: string; fixedTime?: string } = {},
): Promise<Session> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    ...(fixedTime ? { timezoneId: 'UTC', locale: 'en-US' } : {}),
  });
  context.setDefaultTimeout(15_000);
  if (fixedTime) await context.clock.setFixedTime(fixedTime);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console error: ${message.text()}`);
    }
  });
  return { context, page, baseURL, problems };
}

export interface Browsing {
  /** One browser for the file. */
  browser: Browser;
  /** A fresh profile for each test. */
  session: Session;
  page: Page;
}

/**
 * The set-up every journey file shares: one browser for the file, a fresh profile (no cookies, no
 * storage) for each test, closed after it, and no page or console error allowed unless
 * `allowProblem` expects it. `opened` receives them before each test; a file keeps them in its own
 * variables.
 */
export function sessionPerTest(
  opened: (browsing: Browsing) => void,
  options: {
    allowProblem?: (problem: string) => boolean;
    /** A server of the journey's own, started in its beforeAll (read before each test). */
    baseURL?: () => string;
  } = {},
): void {
  let browser: Browser | undefined;
  let session: Session | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    session = await openSession(browser!, { baseURL: options.baseURL?.() });
    opened({ browser: browser!, session, page: session.page });
  });
  afterEach(async () => {
    await session?.context.close();
    const problems = session?.problems ?? [];
    expect(problems.filter((problem) => !options.allowProblem?.(problem))).toEqual([]);
  });
}

/** Signs in through the login form (English labels) and waits for the shell. */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Waits until the address bar shows `expected` (path + search). */
export async function expectPath(page: Page, expected: string): Promise<void> {
  await page.waitForURL((url) => url.pathname + url.search === expected);
}

/**
 * For a journey whose tests build on one another (a later step reads what an earlier one wrote):
 * after the first failure every later test fails at once, naming that step, its message and the
 * page it was on. A CI log shows its tail, and there the cause is then what one reads, not the
 * failures it caused.
 */
export function stopAfterFirstFailure(currentPage: () => Page | undefined): void {
  let first: string | undefined;
  beforeEach((context) => {
    if (first) throw new Error(`Not run, an earlier step of the journey failed: ${first}`);
    context.onTestFailed(({ task }) => {
      const message = task.result?.errors?.[0]?.message ?? 'no message';
      let address = '';
      try {
        address = ` (on ${currentPage()?.url() ?? 'no page'})`;
      } catch {
        // The page is gone with its context: the message alone then.
      }
      first ??= `"${task.name}": ${message.split('\n').slice(0, 12).join('\n')}${address}`;
    });
  });
}
