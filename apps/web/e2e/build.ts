// The web build the journeys serve (apps/web/dist) and the API bundle that serves it
// (apps/api/dist, what production runs: decision 0041), each made only when older than its
// sources. `npm run test:e2e` runs this first (its pretest:e2e step), so the two lanes it starts
// side by side never build at once; e2e/global-setup.ts and src/first-load.test.ts call it too,
// for a lone `vitest run`.
import { spawn } from 'node:child_process';
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

/** Written by every build (vite.config.ts `manifest`): the build's time stamp. */
export const MANIFEST = path.join(DIST_DIR, '.vite/manifest.json');
/** The till's own build's (vite.config.ts `tillApp`), written after the back office's. */
export const TILL_MANIFEST = path.join(DIST_DIR, '.vite/till-manifest.json');

/**
 * Builds apps/web/dist unless it is newer than every source it is made from; awaited, so a test
 * worker that calls it stays responsive meanwhile.
 */
export async function buildWebIfNeeded(): Promise<void> {
  // Both builds' manifests: the till's build (vite.config.ts `tillApp`) ends after the back office's.
  const builtAt = Math.min(newestMtime(MANIFEST), newestMtime(TILL_MANIFEST));
  const sources = [
    path.join(WEB_DIR, 'src'),
    path.join(WEB_DIR, 'public'),
    path.join(WEB_DIR, 'index.html'),
    path.join(WEB_DIR, 'till.html'),
    path.join(WEB_DIR, 'vite.config.ts'),
    path.join(REPO_ROOT, 'packages/contract/src'),
  ];
  if (builtAt > 0 && sources.every((source) => newestMtime(source) < builtAt)) return;
  // A separate process: vitest sets NODE_ENV=test, which would give a development React build.
  // Through tsx, as `npm run build` does: the config imports the contract's TypeScript.
  const vite = path.join(
    path.dirname(createRequire(import.meta.url).resolve('vite/package.json')),
    'bin/vite.js',
  );
  const status = await new Promise<number | null>((resolve, reject) => {
    spawn(process.execPath, ['--import', 'tsx', vite, 'build', '--logLevel', 'warn'], {
      cwd: WEB_DIR,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'inherit',
    })
      .on('error', reject)
      .on('exit', resolve);
  });
  if (status !== 0) throw new Error(`vite build failed (exit ${status})`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await buildWebIfNeeded();
  // Imported here, not at the top: src/first-load.test.ts imports this file in jsdom, where
  // esbuild refuses to load.
  const { buildServerIfStale } = await import('../../api/scripts/build');
  await buildServerIfStale();
}
