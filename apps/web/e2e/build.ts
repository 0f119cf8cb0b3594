// The web build the journeys serve (apps/web/dist), made only when older than its sources.
// `npm run test:e2e` runs this first (its pretest:e2e step), so the two lanes it starts side by
// side never build at once; e2e/global-setup.ts calls it too, for a lone `vitest run`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = path.resolve(WEB_DIR, '../..');
export const DIST_DIR = path.join(WEB_DIR, 'dist');

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
export function buildWebIfNeeded(): void {
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

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  buildWebIfNeeded();
}
