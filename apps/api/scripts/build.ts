/**
 * npm run build -w apps/api: the server as one bundle of ECMAScript modules in apps/api/dist
 * (decision 0041), what `npm start` and the container image run with plain `node`.
 *
 * Only the API's own TypeScript and the workspace's contract are bundled; every npm package stays
 * an import of node_modules, as under tsx, so OpenTelemetry's loader hook still patches http,
 * Fastify and pg as they load, and native or WebAssembly packages (PGlite, argon2) load as they
 * were published. Run-time files (migrations, the modules' SQL, the web app) are read where they
 * are, through src/config/locations.ts. The dynamic import of the app in server.ts stays a separate
 * chunk, so tracing still starts first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_DIR = path.join(API_DIR, 'dist');
export const BUNDLE_ENTRY = path.join(BUNDLE_DIR, 'server.mjs');

/**
 * The flags of every `node` that runs the bundle: `npm start`, the image's command (both checked
 * against this list by packaging.test.ts), the cluster's instances, the tests' and the bench's
 * servers. `--max-semi-space-size=8` caps V8's young generation at 3 × 8 MiB: left to itself on
 * this 24 GiB machine Node 24 grows it to 96 MiB of resident pages during start-up, 40 % of an
 * idle instance's 250 MiB (decision 0052). `--heap-growing-percent=25` lets the old generation
 * grow to 1.25 × what the last full collection left before the next one, instead of V8's own
 * factor of up to 4: under the soak the live heap is 40–60 MiB, and V8 let the old generation
 * reach 147 MiB between collections, pages it then kept (decision 0061).
 */
export const NODE_FLAGS = [
  '--enable-source-maps',
  '--max-semi-space-size=8',
  '--heap-growing-percent=25',
] as const;

/** A bare specifier (`pg`, `@fastify/otel/…`) stays an import, except the workspace's `@app/…`. */
const packagesStayImports: Plugin = {
  name: 'packages-stay-imports',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@app/') || args.path.startsWith('node:')
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

/**
 * Bundles the server into `outdir`, a directory directly inside apps/api (the bundle finds the
 * API's files one level up, src/config/locations.ts): apps/api/dist unless a test wants its own.
 */
export async function buildServer(outdir = BUNDLE_DIR): Promise<void> {
  if (path.dirname(path.resolve(outdir)) !== API_DIR) {
    throw new Error(`The bundle must be built directly inside ${API_DIR}, not in ${outdir}`);
  }
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { server: path.join(API_DIR, 'src/server.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    // The oldest Node.js of the root package.json's `engines` (the bundle was the same as for node24).
    target: 'node20.19',
    plugins: [packagesStayImports],
    external: ['node:*'],
    define: { __API_BUNDLE__: 'true' },
    sourcemap: 'linked',
    // Stack traces name the sources (node --enable-source-maps is set by the start command).
    sourcesContent: false,
    logLevel: 'warning',
  });
}

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(target)
    .reduce(
      (newest, entry) => Math.max(newest, newestMtime(path.join(target, entry))),
      stat.mtimeMs,
    );
}

/**
 * Builds apps/api/dist unless it is newer than every source it is made from: what the browser
 * journeys, the cluster test and the bench call, so that after `npm run build` none rebuilds the
 * directory another may be running from.
 */
export async function buildServerIfStale(): Promise<void> {
  const builtAt = newestMtime(BUNDLE_ENTRY);
  const sources = [
    path.join(API_DIR, 'src'),
    path.join(API_DIR, 'scripts/build.ts'),
    path.join(API_DIR, '../../packages/contract/src'),
  ];
  if (builtAt > 0 && sources.every((source) => newestMtime(source) < builtAt)) return;
  await buildServer();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // `--outdir <dir inside apps/api>`: a bundle beside dist, for a test that must not replace the
  // one other tests run from (scripts/node-versions.test.ts).
  const at = process.argv.indexOf('--outdir');
  const outdir = at > 0 ? path.resolve(API_DIR, process.argv[at + 1] ?? '') : BUNDLE_DIR;
  const started = performance.now();
  await buildServer(outdir);
  const size = fs
    .readdirSync(outdir)
    .filter((file) => file.endsWith('.mjs'))
    .reduce((sum, file) => sum + fs.statSync(path.join(outdir, file)).size, 0);
  console.log(
    `API bundled into ${path.relative(process.cwd(), outdir)} (${Math.round(size / 1024)} KiB) in ${Math.round(performance.now() - started)} ms`,
  );
}
