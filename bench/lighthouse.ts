/**
 * Lighthouse on the sign-in page and on the Super Admin's dashboard, mobile and desktop presets
 * (issue 19 item 7, issue 16), as `npm start` serves them: the web app and the API's bundle
 * built (`--no-build`: both already are), then the bundle serving the app on the embedded
 * database with the demo programme. Results: bench/lighthouse.md.
 *
 *   npm run bench:lighthouse                 # 3 runs of each page and preset, medians
 *   npm run bench:lighthouse -- --runs 5 --reports /tmp/lh-reports
 *   npm run bench:lighthouse -- --only mobile:sign-in --base-url http://127.0.0.1:3000
 *
 * Lighthouse is not a dependency of the project: it is installed once with npm into
 * `LIGHTHOUSE_DIR` (default: <tmp>/lighthouse-<version>) when missing. It downloads no browser;
 * Chromium is Debian's (`CHROMIUM_PATH`, default /usr/bin/chromium). The signed-in run signs in
 * through the form with playwright-core on the same browser (cookie and stored user), empties the
 * HTTP cache, then hands the tab's browser to Lighthouse without its storage reset: a first visit
 * of a signed-in user.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '@app/api/bench';
import { REPO_ROOT } from './lib/server';
import { startTlsFront } from './lib/tls-front';

const LIGHTHOUSE_VERSION = '13.5.0';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const DEMO_ADMIN = { username: 'admin', password: 'Demo@2026' };

const PAGES = {
  'sign-in': { path: '/login', signedIn: false },
  dashboard: { path: '/dashboard', signedIn: true },
} as const;
type PageName = keyof typeof PAGES;
const PRESETS = ['mobile', 'desktop'] as const;
type Preset = (typeof PRESETS)[number];

/** An audit's figure; NaN when Lighthouse could not measure it (a failed run). */
const numeric = (r: LhResult, audit: string) => r.audits[audit]?.numericValue ?? NaN;

const METRICS = {
  score: (r: LhResult) => Math.round((r.categories.performance.score ?? 0) * 100),
  fcpMs: (r: LhResult) => numeric(r, 'first-contentful-paint'),
  lcpMs: (r: LhResult) => numeric(r, 'largest-contentful-paint'),
  tbtMs: (r: LhResult) => numeric(r, 'total-blocking-time'),
  cls: (r: LhResult) => numeric(r, 'cumulative-layout-shift'),
  speedIndexMs: (r: LhResult) => numeric(r, 'speed-index'),
  mainThreadMs: (r: LhResult) => numeric(r, 'mainthread-work-breakdown'),
  scriptKiB: (r: LhResult) =>
    (r.audits['resource-summary']?.details?.items ?? [])
      .filter((item) => item.resourceType === 'script')
      .reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024,
};
type Metric = keyof typeof METRICS;

interface LhResult {
  categories: { performance: { score: number | null } };
  audits: Record<
    string,
    {
      numericValue?: number;
      displayValue?: string;
      details?: { items?: { resourceType?: string; transferSize?: number }[] };
    }
  >;
}

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string', multiple: true },
    throttling: { type: 'string', default: 'simulate' },
    'base-url': { type: 'string' },
    reports: { type: 'string' },
    json: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    // h2: through a TLS front offering HTTP/2, as a phone reaches a deployment (bench/lib/tls-front.ts);
    // http1: the API's own plain HTTP/1.1 port.
    front: { type: 'string', default: 'http1' },
  },
});
const runs = Number(args.runs);
if (args.front !== 'h2' && args.front !== 'http1') throw new Error('--front is h2 or http1');
const chromeFlags =
  args.front === 'h2' ? [...CHROME_FLAGS, '--ignore-certificate-errors'] : CHROME_FLAGS;
const chromePath = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Lighthouse and chrome-launcher from their own npm prefix, installed there when missing. */
async function loadLighthouse() {
  const dir =
    process.env.LIGHTHOUSE_DIR ?? path.join(os.tmpdir(), `lighthouse-${LIGHTHOUSE_VERSION}`);
  const modules = path.join(dir, 'node_modules');
  if (!fs.existsSync(path.join(modules, 'lighthouse/package.json'))) {
    console.log(`Installing lighthouse@${LIGHTHOUSE_VERSION} into ${dir} …`);
    const npm = spawnSync(
      'npm',
      ['install', '--prefix', dir, '--no-audit', '--no-fund', `lighthouse@${LIGHTHOUSE_VERSION}`],
      { stdio: 'inherit' },
    );
    if (npm.status !== 0) throw new Error('npm install lighthouse failed');
  }
  const load = (file: string) => import(pathToFileURL(path.join(modules, file)).href);
  const lighthouse = await load('lighthouse/core/index.js');
  const chromeLauncher = await load('chrome-launcher/dist/index.js');
  return {
    run: lighthouse.default as (
      url: string,
      flags: Record<string, unknown>,
      config?: unknown,
    ) => Promise<{ lhr: LhResult; report: string; artifacts: { Trace?: unknown } } | undefined>,
    desktopConfig: lighthouse.desktopConfig as unknown,
    launch: chromeLauncher.launch as (options: {
      chromePath: string;
      chromeFlags: string[];
    }) => Promise<{ port: number; kill(): Promise<void> | void }>,
  };
}

/** Signs in through the form on the browser at `port`, then empties its HTTP cache. */
async function signIn(port: number, baseUrl: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel('Username or email').fill(DEMO_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 60_000 });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    // Lighthouse opens its own tab; this one goes, so nothing else runs meanwhile.
    await page.goto('about:blank');
    await page.close();
  } finally {
    // Disconnects; the browser stays up for Lighthouse.
    await browser.close();
  }
}

/** The median of the runs that measured (a failed run, e.g. NO_FCP, gives NaN and is left out). */
const median = (values: number[]) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main() {
  if (!args['base-url'] && !args['no-build']) {
    // The web app and the API's bundle, which `npm start` runs (decision 0041).
    const build = spawnSync('npm', ['run', 'build'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  const lh = await loadLighthouse();
  let baseUrl = args['base-url']?.replace(/\/$/, '');
  let stopServer = async () => {};
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lighthouse-'));
  if (!baseUrl) {
    // From its bundle, as `npm start` runs it (it ran from the sources through tsx).
    const server = await startServer(
      {
        DATA_DIR: dataDir,
        SERVE_WEB: 'true',
        WEB_DIST_DIR: path.join(REPO_ROOT, 'apps/web/dist'),
        DEMO_DATA: 'true',
        LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      },
      { from: 'bundle' },
    );
    baseUrl = server.baseURL;
    stopServer = () => server.stop();
  }
  if (args.front === 'h2') {
    const front = await startTlsFront(baseUrl);
    const stopApi = stopServer;
    baseUrl = front.baseURL;
    stopServer = async () => {
      await front.stop();
      await stopApi();
    };
  }
  const wanted = (preset: Preset, page: PageName) =>
    !args.only || args.only.includes(`${preset}:${page}`);
  const results: Record<string, Record<Metric, number[]>> = {};
  try {
    for (let run = 1; run <= runs; run++) {
      for (const preset of PRESETS) {
        for (const [name, page] of Object.entries(PAGES) as [
          PageName,
          (typeof PAGES)[PageName],
        ][]) {
          if (!wanted(preset, name)) continue;
          const chrome = await lh.launch({ chromePath, chromeFlags });
          try {
            if (page.signedIn) await signIn(chrome.port, baseUrl);
            const result = await lh.run(
              `${baseUrl}${page.path}`,
              {
                port: chrome.port,
                output: 'html',
                logLevel: 'error',
                onlyCategories: ['performance'],
                // `devtools`: the phone's network and CPU applied to the browser as it loads,
                // instead of Lighthouse's default simulation from an unthrottled load.
                throttlingMethod: args.throttling === 'devtools' ? 'devtools' : 'simulate',
                // The signed-in page keeps the session and stored user (its cache was emptied).
                disableStorageReset: page.signedIn,
              },
              preset === 'desktop' ? lh.desktopConfig : undefined,
            );
            if (!result) throw new Error('Lighthouse returned nothing');
            const key = `${preset}:${name}`;
            results[key] ??= Object.fromEntries(
              Object.keys(METRICS).map((m) => [m, [] as number[]]),
            ) as Record<Metric, number[]>;
            for (const [metric, read] of Object.entries(METRICS) as [
              Metric,
              (r: LhResult) => number,
            ][]) {
              results[key][metric].push(read(result.lhr));
            }
            if (args.reports) {
              fs.mkdirSync(args.reports, { recursive: true });
              const base = path.join(args.reports, `${preset}-${name}-${run}`);
              fs.writeFileSync(`${base}.html`, result.report);
              fs.writeFileSync(`${base}.json`, JSON.stringify(result.lhr));
              fs.writeFileSync(`${base}.trace.json`, JSON.stringify(result.artifacts.Trace));
            }
            console.log(
              `run ${run} ${key}: score ${METRICS.score(result.lhr)}, LCP ${Math.round(METRICS.lcpMs(result.lhr))} ms, TBT ${Math.round(METRICS.tbtMs(result.lhr))} ms`,
            );
          } finally {
            await chrome.kill();
          }
        }
      }
    }
  } finally {
    await stopServer();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const medians = Object.fromEntries(
    Object.entries(results).map(([key, metrics]) => [
      key,
      Object.fromEntries(
        Object.entries(metrics).map(([metric, values]) => [
          metric,
          { median: Math.round(median(values) * 1000) / 1000, runs: values },
        ]),
      ),
    ]),
  );
  console.log(
    `\nMedians of ${runs} runs (Lighthouse ${LIGHTHOUSE_VERSION}, ${os.cpus().length} cores, ${args.front === 'h2' ? 'HTTPS with HTTP/2' : 'plain HTTP/1.1'}):`,
  );
  console.log(
    '| preset:page | score | FCP ms | LCP ms | TBT ms | CLS | SI ms | main thread ms | JS KiB |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [key, m] of Object.entries(medians)) {
    const v = (metric: Metric, digits = 0) => m[metric]!.median.toFixed(digits);
    console.log(
      `| ${key} | ${v('score')} | ${v('fcpMs')} | ${v('lcpMs')} | ${v('tbtMs')} | ${v('cls', 3)} | ${v('speedIndexMs')} | ${v('mainThreadMs')} | ${v('scriptKiB', 1)} |`,
    );
  }
  if (args.json) {
    const file = { ranAt: new Date().toISOString(), front: args.front, ...medians };
    fs.writeFileSync(args.json, `${JSON.stringify(file, null, 2)}\n`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
