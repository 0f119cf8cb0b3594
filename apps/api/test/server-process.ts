// The real server as a child process (`node --import tsx apps/api/src/server.ts`, or its bundle
// `node apps/api/dist/server.mjs` as `npm start` and the image run it): for the tests that kill
// it, the browser journeys (apps/web/e2e/global-setup.ts) and the benchmarks (bench/lib/server.ts);
// and a tiny HTTP client.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../scripts/build';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const READY_TIMEOUT_MS = 120_000;
const OUTPUT_TAIL_CHARS = 100_000;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it answers true, failing with `what` after `timeoutMs`. */
export async function until(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface ServerProcess {
  baseURL: string;
  pid: number;
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hook runs, in-flight requests and transactions are cut. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL if it lingers. */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** How the server is run: from its sources through tsx, or from its bundle (built beforehand). */
const ENTRY = {
  sources: ['--import', 'tsx', 'apps/api/src/server.ts'],
  bundle: [...NODE_FLAGS, 'apps/api/dist/server.mjs'],
};

type From = keyof typeof ENTRY | { bundle: string };

/** The servers this process started and has not seen exit. */
const running = new Set<ChildProcess>();
let killsOnExit = false;

/**
 * Kills `child` if this process exits without stopping it: a benchmark that crashed (an exception
 * in a load generator's callback skips every `finally`) left its API running, and the next run
 * shared the CPU with it.
 */
function killedOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (killsOnExit) return;
  killsOnExit = true;
  process.once('exit', () => {
    for (const server of running) server.kill('SIGKILL');
  });
}

/**
 * Starts the server with `env` on top of a clean base (API only, no demo data, no jobs timer,
 * quiet logs, a free port of 127.0.0.1), and waits for /readyz. `from: 'bundle'` runs
 * apps/api/dist, which the caller has built (apps/api/scripts/build.ts); `{ bundle: file }` another
 * bundle's entry.
 */
export async function startServer(
  env: Record<string, string>,
  { from = 'sources' }: { from?: From } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'DATABASE_READ_URL', 'ADMIN_USERNAME', 'ADMIN_PASSWORD']) {
    delete base[key];
  }
  let output = '';
  // API_NODE_ARGS adds flags to the API's node, e.g. `--cpu-prof` to profile a benchmark.
  const nodeArgs = (process.env.API_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const entry = typeof from === 'string' ? ENTRY[from] : [...NODE_FLAGS, from.bundle];
  const child = spawn(process.execPath, [...nodeArgs, ...entry], {
    // API_ROOT: another checkout's API (a before/after comparison on the same bench run).
    cwd: process.env.API_ROOT ?? REPO_ROOT,
    env: {
      ...base,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      SERVE_WEB: 'false',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      JOBS_INTERVAL_SECONDS: '0',
      // Process tests and the bench sign in as admin without an authenticator (decision 0015).
      MFA_REQUIRED_ROLES: 'none',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killedOnExit(child);
  // Only the tail is kept: a long benchmark must not grow the caller's memory.
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const server: ServerProcess = {
    baseURL,
    pid: child.pid!,
    child,
    output: () => output,
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.kill('SIGTERM');
      await exited(child);
      clearTimeout(force);
    },
  };
  try {
    await until(
      'the server to be ready',
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
        return (await fetch(`${baseURL}/readyz`)).status === 200;
      },
      READY_TIMEOUT_MS,
      200,
    );
  } catch (error) {
    await server.kill();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return server;
}
