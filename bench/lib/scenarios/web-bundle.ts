/**
 * Scenario 5: what the browser downloads. The web app is built into a temporary directory with a
 * Vite manifest (apps/web/dist is left alone); the initial JavaScript of a route is the entry's
 * static import graph plus the route chunks the router loads for it and their static imports.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { REPO_ROOT } from '../server';
import { heaviestPackages } from '../source-map-weights';
import { round } from '../stats';

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface RouteWeight {
  route: string;
  modules: string[];
  files: number;
  bytes: number;
  gzipBytes: number;
  /** What goes over the wire to a browser that accepts brotli: the build's own .br twins. */
  brotliBytes: number;
  /** What the route's initial JavaScript is made of, heaviest first (by its source map). */
  heaviest: { name: string; bytes: number; gzipBytes: number }[];
}

export interface WebScenario {
  buildSeconds: number;
  routes: RouteWeight[];
  largestRouteChunk: {
    module: string;
    file: string;
    bytes: number;
    gzipBytes: number;
    brotliBytes: number;
  };
}

/** The route modules the router loads for a path (apps/web/src/routes/index.tsx). */
const ROUTES: Record<string, string[]> = {
  login: ['src/routes/login.tsx'],
  dashboard: ['src/routes/app/layout.tsx', 'src/routes/app/dashboard.tsx'],
};

/**
 * The manifest key of a route module. Rollup sometimes emits a lazy route as a chunk without a
 * facade module (it then shares the chunk with code it imports), and Vite keys such a chunk by its
 * file (`_layout-….js`): found by the one dynamic entry of the module's name.
 */
function manifestKeyOf(manifest: Manifest, module: string): string {
  if (manifest[module]) return module;
  const name = path.basename(module).replace(/\.[jt]sx?$/, '');
  const candidates = Object.entries(manifest).filter(
    ([key, chunk]) => key.startsWith('_') && chunk.isDynamicEntry && chunk.name === name,
  );
  if (candidates.length !== 1) throw new Error(`Not in the Vite manifest: ${module}`);
  return candidates[0]![0];
}

function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`Not in the Vite manifest: ${key}`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

export function runWebScenario(): WebScenario {
  const webDir = path.join(REPO_ROOT, 'apps/web');
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-web-'));
  try {
    const vite = path.join(
      path.dirname(createRequire(path.join(webDir, 'package.json')).resolve('vite/package.json')),
      'bin/vite.js',
    );
    const started = performance.now();
    const build = spawnSync(
      process.execPath,
      [
        vite,
        'build',
        '--outDir',
        outDir,
        '--emptyOutDir',
        '--manifest',
        // Maps for the breakdown, without a sourceMappingURL comment in the measured files.
        '--sourcemap',
        'hidden',
        '--logLevel',
        'error',
      ],
      { cwd: webDir, env: { ...process.env, NODE_ENV: 'production' }, encoding: 'utf8' },
    );
    if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}${build.stderr}`);
    const buildSeconds = round((performance.now() - started) / 1000, 1);
    const manifest = JSON.parse(
      fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'),
    ) as Manifest;
    const sizes = new Map<string, { bytes: number; gzipBytes: number; brotliBytes: number }>();
    const sizeOf = (file: string) => {
      let size = sizes.get(file);
      if (!size) {
        const content = fs.readFileSync(path.join(outDir, file));
        const brotli = path.join(outDir, `${file}.br`);
        size = {
          bytes: content.length,
          gzipBytes: zlib.gzipSync(content, { level: 9 }).length,
          // Files under the build's compression threshold are sent as they are.
          brotliBytes: fs.existsSync(brotli) ? fs.statSync(brotli).size : content.length,
        };
        sizes.set(file, size);
      }
      return size;
    };
    const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
    if (!entry) throw new Error('The Vite manifest has no entry');
    const routes = Object.entries(ROUTES).map(([route, modules]) => {
      const files = [
        ...staticClosure(manifest, [entry, ...modules.map((m) => manifestKeyOf(manifest, m))]),
      ]
        .map((k) => manifest[k]!.file)
        .filter((f) => f.endsWith('.js'));
      const unique = [...new Set(files)];
      return {
        route,
        modules,
        files: unique.length,
        bytes: unique.reduce((sum, f) => sum + sizeOf(f).bytes, 0),
        gzipBytes: unique.reduce((sum, f) => sum + sizeOf(f).gzipBytes, 0),
        brotliBytes: unique.reduce((sum, f) => sum + sizeOf(f).brotliBytes, 0),
        heaviest: heaviestPackages(
          unique.map((f) => path.join(outDir, f)),
          10,
        ),
      };
    });
    const routeChunks = Object.entries(manifest)
      .filter(([key, chunk]) => chunk.isDynamicEntry && key.startsWith('src/routes/'))
      .map(([key, chunk]) => ({ module: key, file: chunk.file, ...sizeOf(chunk.file) }))
      .sort((a, b) => b.gzipBytes - a.gzipBytes);
    if (!routeChunks[0]) throw new Error('No route chunks in the Vite manifest');
    return { buildSeconds, routes, largestRouteChunk: routeChunks[0] };
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
