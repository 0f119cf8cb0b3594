import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServerIfStale, startServer } from '@app/api/bench';

/**
 * The bench API's MFA_ENCRYPTION_KEY (decision 0015), fixed, so that the pay devices the till
 * scenario seeds are sealed as the API reads them. Bench data only.
 */
export const BENCH_MFA_KEY = crypto.createHash('sha256').update('bench:mfa').digest('hex');

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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

/** The API's bundle, built once per bench process (what `npm start` and the image run). */
let bundled: Promise<void> | undefined;

/**
 * Starts the real API as production runs it (its bundle, `node apps/api/dist/server.mjs`, decision
 * 0041; apps/api/test/server-process.ts) on the bench database, API only, no jobs timer, quiet
 * logs, on a free port of 127.0.0.1, and waits until /readyz answers. With API_ROOT (another
 * checkout, a before/after comparison) that checkout's sources run through tsx, as it may have no
 * bundle.
 */
export async function startApi(options: {
  databaseUrl: string;
  admin: { username: string; password: string };
  env?: Record<string, string>;
}): Promise<ApiServer> {
  const from = process.env.API_ROOT ? 'sources' : 'bundle';
  if (from === 'bundle') await (bundled ??= buildServerIfStale());
  const server = await startServer(
    {
      DATABASE_URL: options.databaseUrl,
      APP_TIMEZONE: 'UTC',
      ADMIN_USERNAME: options.admin.username,
      ADMIN_PASSWORD: options.admin.password,
      // The per-terminal limit guards against a runaway till; a bench terminal sends far more.
      TERMINAL_RATE_LIMIT_PER_MINUTE: '1000000',
      // Pay devices (the till scenario) are sealed under it, as TOTP secrets are.
      MFA_ENCRYPTION_KEY: BENCH_MFA_KEY,
      ...options.env,
    },
    { from },
  );
  const memory = new MemorySampler(server.pid);
  return {
    baseUrl: server.baseURL,
    pid: server.pid,
    memory,
    peakResidentBytes: () => residentMemory(server.pid)?.peak ?? 0,
    output: () => server.output(),
    stop: async () => {
      memory.stop();
      await server.stop();
    },
  };
}
