// The client installs anywhere (issue 44 item 3): `npm pack` makes a tarball of packages/client
// (its `prepare` builds JavaScript and type declarations), which a project of its own in a
// temporary folder installs and imports with plain Node.js 20, 22 and 24 (no TypeScript loader),
// running the README's till example against a running demo server: an order, the same order sent
// again with its key, a partial refund. The README's TypeScript example type-checks against the
// packed declarations, and a body the API would refuse does not. The package is packed from a
// copy of it (beside the repository's node_modules), so its build writes nothing that the suites
// beside this one read.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, NODE_FLOORS, nodeBin, REPO_ROOT, run, shellEnv } from './node-bin';

const CLIENT_DIR = path.join(REPO_ROOT, 'packages/client');
const README = fs.readFileSync(path.join(CLIENT_DIR, 'README.md'), 'utf8');
/** The demo terminal's key (apps/api/src/seed/demo-programme.ts), printed at a first start. */
const DEMO_TERMINAL_KEY = 'tk_demo_SHOP_T1_try-the-terminal-api';

/** The code block that follows the README's `<!-- marker … -->` comment. */
function exampleAfter(marker: string): string {
  const at = README.indexOf(`<!-- ${marker}`);
  expect(at, marker).toBeGreaterThan(-1);
  const block = /```(?:js|ts)\n([\s\S]*?)```/.exec(README.slice(at));
  return block![1]!;
}

/** Node.js 24 is the one running this test when it is 24 or later; else the registry's 24.0.0. */
const LATEST = Number(process.versions.node.split('.')[0]) >= 24 ? process.versions.node : '24.0.0';
const binOf = (version: string) =>
  version === process.versions.node
    ? Promise.resolve(path.dirname(process.execPath))
    : nodeBin(version);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'client-package-'));
const appDir = path.join(work, 'till');
let packed: { filename: string; files: { path: string }[] };
let server: ChildProcess | undefined;
let serverOutput = '';
let baseUrl = '';

beforeAll(async () => {
  // The package as it is in the checkout, beside the repository's tsconfig and node_modules.
  const mirror = path.join(work, 'repo');
  fs.mkdirSync(path.join(mirror, 'packages'), { recursive: true });
  fs.copyFileSync(
    path.join(REPO_ROOT, 'tsconfig.base.json'),
    path.join(mirror, 'tsconfig.base.json'),
  );
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(mirror, 'node_modules'), 'dir');
  fs.cpSync(CLIENT_DIR, path.join(mirror, 'packages/client'), {
    recursive: true,
    filter: (source) => !/[/\\](dist|node_modules)$/.test(source),
  });
  const pack = await run(
    'npm',
    ['pack', '--json', '--pack-destination', work, '--loglevel=error'],
    {
      cwd: path.join(mirror, 'packages/client'),
    },
  );
  expect(pack.status, pack.output).toBe(0);
  // npm's JSON report, after whatever the build printed.
  const report = pack.output.slice(pack.output.search(/\[\s*\{/));
  packed = (JSON.parse(report) as (typeof packed)[])[0]!;

  // A project of its own that installs the tarball (openapi-fetch from npm's cache or registry).
  fs.mkdirSync(appDir);
  fs.writeFileSync(
    path.join(appDir, 'package.json'),
    JSON.stringify({ name: 'till', private: true, type: 'module' }),
  );
  const install = await run(
    'npm',
    [
      'install',
      path.join(work, packed.filename),
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    { cwd: appDir },
  );
  expect(install.status, install.output).toBe(0);

  // The demo server of a first start, on the embedded database.
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn(
    path.join(REPO_ROOT, 'node_modules/.bin/tsx'),
    [path.join(REPO_ROOT, 'apps/api/src/server.ts')],
    {
      cwd: path.join(REPO_ROOT, 'apps/api'),
      env: {
        ...shellEnv(path.dirname(process.execPath)),
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: path.join(work, 'data'),
        SERVE_WEB: 'false',
        JOBS_INTERVAL_SECONDS: '0',
        WEBHOOKS_POLL_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  server.stdout!.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited:\n${serverOutput}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready && serverOutput.includes('Demo data loaded')) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.on('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(work, { recursive: true, force: true });
});

describe('the packed client', () => {
  it('holds JavaScript, its type declarations and the README, not the TypeScript sources', () => {
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toEqual([
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/schema.d.ts',
      'package.json',
    ]);
    const manifest = JSON.parse(
      fs.readFileSync(path.join(appDir, 'node_modules/@app/client/package.json'), 'utf8'),
    ) as { private?: boolean; exports: Record<string, unknown> };
    expect(manifest.private).toBeUndefined();
    expect(manifest.exports['.']).toEqual({
      types: './dist/index.d.ts',
      import: './dist/index.js',
      default: './dist/index.js',
    });
  });

  it.each([...NODE_FLOORS, LATEST])(
    'runs the README’s till with plain Node.js %s: an order, its retry, a refund',
    async (version) => {
      const bin = await binOf(version);
      const env = { ...shellEnv(bin), API_URL: baseUrl, TERMINAL_KEY: DEMO_TERMINAL_KEY };
      const which = await run('node', ['-p', 'process.versions.node'], { cwd: appDir, env });
      expect(which.output.trim()).toBe(version);
      fs.writeFileSync(path.join(appDir, 'till.mjs'), exampleAfter('till-example'));
      const till = await run('node', ['till.mjs'], { cwd: appDir, env });
      expect(till.status, till.output).toBe(0);
      const lines = till.output.trim().split('\n');
      const placed = /^placed (ORD\d+) \(order (\d+)\): 65 tokens, (\d+) left$/.exec(lines[0]!);
      expect(placed, till.output).not.toBeNull();
      expect(lines[1]).toBe(`sent again with the same key: order ${placed![2]}, not a second one`);
      expect(lines[2]).toBe('refunded 10 of 65 tokens');
      expect(lines).toHaveLength(3);

      // The server holds the one order, partly refunded: the retry placed none.
      const answer = await fetch(`${baseUrl}/api/v1/orders/${placed![2]}`, {
        headers: { authorization: `Bearer ${DEMO_TERMINAL_KEY}` },
      });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { data: unknown }).data).toMatchObject({
        id: Number(placed![2]),
        order_no: placed![1],
        subtotal: 65,
        refunded_amount: 10,
      });
    },
  );

  it('type-checks the README’s TypeScript example against the packed declarations, and not a bad order', async () => {
    fs.writeFileSync(path.join(appDir, 'typed.ts'), exampleAfter('typed-example'));
    fs.writeFileSync(
      path.join(appDir, 'refused.ts'),
      [
        "import { createApiClient } from '@app/client';",
        "const till = createApiClient({ baseUrl: 'http://127.0.0.1:1', terminalKey: 'k' });",
        "const header = { 'idempotency-key': 'k' };",
        'export const orders = [',
        '  // @ts-expect-error: an order without its items',
        "  till.POST('/api/v1/orders', { params: { header }, body: { company_code: 'ACME', employee_id: 'E0001', order_type: 'dine_in' } }),",
        "  till.POST('/api/v1/orders/{id}/refund', {",
        '    params: { path: { id: 1 }, header },',
        '    // @ts-expect-error: a reason the API does not know',
        "    body: { reason: 'changed_my_mind' },",
        '  }),',
        '];',
        '',
      ].join('\n'),
    );
    // A consumer's own strict settings, Node.js's module resolution (the package's `exports`).
    fs.writeFileSync(
      path.join(appDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
        },
        files: ['typed.ts', 'refused.ts'],
      }),
    );
    const tsc = await run(
      process.execPath,
      [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'],
      {
        cwd: appDir,
      },
    );
    expect(tsc.output).toBe('');
    expect(tsc.status).toBe(0);
    // The check can fail: an item's price as text does not compile.
    fs.writeFileSync(
      path.join(appDir, 'refused.ts'),
      "import { createApiClient } from '@app/client';\n" +
        "createApiClient({ baseUrl: '' }).POST('/api/v1/orders', { params: { header: { 'idempotency-key': 'k' } }, body: { company_code: 'ACME', employee_id: 'E0001', order_type: 'dine_in', items: [{ name: 'Tea', quantity: 1, unit_tokens: 'eight' }] } });\n",
    );
    const refused = await run(
      process.execPath,
      [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'],
      { cwd: appDir },
    );
    expect(refused.status).not.toBe(0);
    expect(refused.output).toMatch(
      /refused\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
    );
  });
});
