import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startServer, type ServerProcess } from '../../api/test/server-process';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = path.resolve(WEB_DIR, '../..');
const DIST_DIR = path.join(WEB_DIR, 'dist');

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (newest, entry) => Math.max(newest, newestMtime(path.join(target, entry))),
    stat.mtimeMs,
  );
}

/** Builds apps/web/dist unless it is newer than every source it is made from. */
function buildWebIfNeeded(): void {
  const builtAt = newestMtime(path.join(DIST_DIR, 'index.html'));
  const sources = [
    path.join(WEB_DIR, 'src'),
    path.join(WEB_DIR, 'public'),
    path.join(WEB_DIR, 'index.html'),
    path.join(WEB_DIR, 'vite.config.ts'),
    path.join(REPO_ROOT, 'packages/contract/src'),
  ];
  if (builtAt > 0 && sources.every((source) => newestMtime(source) < builtAt)) return;
  // A separate process: vitest sets NODE_ENV=test, which would give a development React build.
  const vite = path.join(
    path.dirname(createRequire(import.meta.url).resolve('vite/package.json')),
    'bin/vite.js',
  );
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: WEB_DIR,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
}

/**
 * Builds the web app if needed, starts the real API (embedded PGlite with the demo programme in
 * a fresh temporary DATA_DIR) on a free port, and hands its address to the journeys.
 * `E2E_BASE_URL` points the journeys at a server you started yourself instead.
 */
export default async function setup(project: TestProject) {
  const external = process.env.E2E_BASE_URL;
  if (external) {
    project.provide('baseURL', external.replace(/\/$/, ''));
    return;
  }

  buildWebIfNeeded();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'web-e2e-'));
  let server: ServerProcess;
  try {
    server = await startServer({
      DATA_DIR: dataDir,
      SERVE_WEB: 'true',
      WEB_DIST_DIR: DIST_DIR,
      DEMO_DATA: 'true',
      JOBS_INTERVAL_SECONDS: '60',
      // The journeys sign in some thirty times within a few minutes, all from 127.0.0.1; the limit
      // itself is tested on the API (iam.test.ts).
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  project.provide('baseURL', server.baseURL);

  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
