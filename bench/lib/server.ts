import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const READY_TIMEOUT_MS = 120_000;

function freePort(): Promise<number> {
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

/** VmRSS and VmHWM (peak resident set) of a process, in bytes, from /proc. */
export function residentMemory(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
  } catch {
    return undefined;
  }
}

/** The highest resident memory seen while a section ran, sampled every 100 ms. */
export class MemorySampler {
  private readonly timer: NodeJS.Timeout;
  private sectionMax = 0;
  overallMax = 0;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 100);
    this.timer.unref();
  }

  private sample(): void {
    const memory = residentMemory(this.pid);
    if (!memory) return;
    this.sectionMax = Math.max(this.sectionMax, memory.rss);
    this.overallMax = Math.max(this.overallMax, memory.rss);
  }

  /** Starts a section; the function returned ends it and gives its peak RSS in bytes. */
  section(): () => number {
    this.sample();
    this.sectionMax = 0;
    this.sample();
    return () => {
      this.sample();
      return this.sectionMax;
    };
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export interface ApiServer {
  baseUrl: string;
  pid: number;
  memory: MemorySampler;
  /** VmHWM of the API process now: its peak resident memory since it started. */
  peakResidentBytes(): number;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the real API (`node --import tsx apps/api/src/server.ts`) on the bench database, API only,
 * no jobs timer, quiet logs, on a free port of 127.0.0.1, and waits until /readyz answers.
 */
export async function startApi(options: {
  databaseUrl: string;
  admin: { username: string; password: string };
  env?: Record<string, string>;
}): Promise<ApiServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl,
    SERVE_WEB: 'false',
    JOBS_INTERVAL_SECONDS: '0',
    LOG_LEVEL: 'warn',
    APP_TIMEZONE: 'UTC',
    ADMIN_USERNAME: options.admin.username,
    ADMIN_PASSWORD: options.admin.password,
    // The per-terminal limit guards against a runaway till; a bench terminal sends far more.
    TERMINAL_RATE_LIMIT_PER_MINUTE: '1000000',
    ...options.env,
  };
  for (const key of ['DATABASE_READ_URL', 'DEMO_DATA', 'DATA_DIR']) delete env[key];

  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    // Keep the tail only: a long run must not grow the bench's own memory.
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  try {
    await waitUntilReady(baseUrl, child, () => output);
  } catch (error) {
    await stop(child);
    throw error;
  }
  const pid = child.pid!;
  const memory = new MemorySampler(pid);
  return {
    baseUrl,
    pid,
    memory,
    peakResidentBytes: () => residentMemory(pid)?.peak ?? 0,
    output: () => output,
    stop: async () => {
      memory.stop();
      await stop(child);
    },
  };
}

async function waitUntilReady(baseUrl: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The API exited (${child.exitCode}) before it was ready:\n${output()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The API was not ready within ${READY_TIMEOUT_MS} ms:\n${output()}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
