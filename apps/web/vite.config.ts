import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { contractResources, LANGUAGES } from './src/locales/contract-resources';
import type * as PrerenderModule from './src/prerender';

const SRC = fileURLToPath(new URL('./src', import.meta.url));
/**
 * Module aliases of both builds (the browser's and the server entry's): `@` for src, and React's
 * own `useSyncExternalStore` for the shim react-i18next imports (src/lib/use-sync-external-store.ts).
 */
const ALIASES = [
  { find: '@', replacement: SRC },
  {
    find: /^use-sync-external-store\/shim$/,
    replacement: path.join(SRC, 'lib/use-sync-external-store.ts'),
  },
];
/** TanStack Query's mutations and infinite lists, apart from its queries (decision 0060). */
const QUERY_LATER =
  /node_modules\/@tanstack\/(query-core|react-query)\/.*\/(mutationObserver|useMutation|infiniteQueryObserver|useInfiniteQuery|infiniteQueryOptions)\.js$/;
/**
 * Where the server entry is built: in the build, in a dot directory, which the API does not serve
 * (nothing there is for the browser) and which goes with the build it belongs to.
 */
const SERVER_OUT_DIR = '.server';

/** The till's own build (its page, till.html, and its Vite manifest): see `tillApp`. */
export const TILL_PAGE = 'till.html';
export const TILL_MANIFEST = '.vite/till-manifest.json';
/** The till's service worker, at the root so that its scope may be the till's path, /till. */
export const TILL_SERVICE_WORKER = 'till-sw.js';
/** What both builds define: the build's id busts the browser cache of /locales/*.json. */
const DEFINE = { __BUILD_ID__: JSON.stringify(Date.now().toString(36)) };

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Writes `file` in dist with its brotli and gzip twins (decision 0018). */
function writeWithTwins(file: string, content: string) {
  writeFileSync(file, content);
  writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(content, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
    }),
  );
  writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
}

/**
 * `virtual:contract-catalogue/{en,zh}`: the contract's namespaces (validation messages, error
 * codes, UI messages, role names) of one language as a module of plain data, which the web app
 * imports when it starts in that language (src/locales/fetch-backend.ts, decision 0044). The
 * contract holds both languages side by side, so importing it sent both with the entry.
 */
function contractCatalogues(): Plugin {
  const prefix = 'virtual:contract-catalogue/';
  return {
    name: 'contract-catalogues',
    resolveId: (id) => (id.startsWith(prefix) ? `\0${id}` : undefined),
    load(id) {
      if (!id.startsWith(`\0${prefix}`)) return undefined;
      const lng = id.slice(prefix.length + 1);
      const language = LANGUAGES.find((known) => known === lng);
      if (!language) throw new Error(`No contract catalogue for ${lng}`);
      return `export default ${JSON.stringify(contractResources(language))};`;
    },
  };
}

/**
 * React Router's production build in the builds (decision 0058). Its package exports only
 * `dist/development` (remix-run/react-router#14102, open), whose `ENABLE_DEV_WARNINGS` is true: the
 * built app carried the developer warnings and their code (0.6 kB gzip) and printed them. The
 * production build is the same code with that flag off. `npm run dev` keeps the warnings.
 */
const REACT_ROUTER_DIR = path.dirname(
  createRequire(import.meta.url).resolve('react-router/package.json'),
);
const REACT_ROUTER_PRODUCTION = path.join(REACT_ROUTER_DIR, 'dist/production/index.mjs');

/**
 * What Rollup may drop of the router's code (decision 0060). The router is one module, so whatever
 * Rollup cannot prove unused stays in every first load:
 * - its components and contexts are made by `React.forwardRef`, `memo` and `createContext` calls
 *   its build does not mark pure, and named by `X.displayName = …` assignments: with the calls
 *   marked and the names dropped, the components we never use (`NavLink`, `Form`, the fetchers'
 *   form, `Await`…) go;
 * - `<Link>` runs the framework mode's prefetching (`prefetch="intent|render|viewport"`, with the
 *   route manifest of a React Router app) even for its default `prefetch="none"`, which keeps
 *   that machinery: it never prefetches here (we pass no `prefetch`; first-load.test.ts checks).
 * Each patch must match, so that an upgrade that changes the code fails the build, not silently
 * keeps the weight. The patches keep every line where it was (`map: null` keeps the router's
 * source map, a few columns off).
 */
export const REACT_ROUTER_PATCHES: { what: string; pattern: RegExp; replacement: string }[] = [
  {
    what: 'pure component and context factories',
    pattern: /(?<!__PURE__ \*\/ )\bReact\d*\.(?:forwardRef|createContext|memo)\(/g,
    replacement: '/* @__PURE__ */ $&',
  },
  {
    what: 'displayName assignments',
    pattern: /^[ \t]*[\w.]+\.displayName = "[^"]*";$/gm,
    replacement: '',
  },
  {
    what: "Link's prefetching",
    pattern:
      /let \[shouldPrefetch, prefetchRef, prefetchHandlers\] = usePrefetchBehavior\(\s*prefetch,\s*rest\s*\);/,
    replacement: 'const shouldPrefetch = false, prefetchRef = null, prefetchHandlers = null;',
  },
];

function reactRouterProduction(): Plugin {
  return {
    name: 'react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId: (id) => (id === 'react-router' ? REACT_ROUTER_PRODUCTION : undefined),
    transform(code, id) {
      if (!id.startsWith(path.join(REACT_ROUTER_DIR, 'dist/production/chunk-'))) return undefined;
      // The chunk with the router's React components (the other holds the server's code).
      if (!code.includes('function LinkWithRef(')) return undefined;
      let patched = code;
      for (const { what, pattern, replacement } of REACT_ROUTER_PATCHES) {
        const next = patched.replace(pattern, replacement);
        if (next === patched) throw new Error(`React Router's code changed: no ${what} to patch`);
        patched = next;
      }
      return { code: patched, map: null };
    },
  };
}

/**
 * After the build: the server entry src/prerender.tsx built for Node, dist/.server/prerender.mjs
 * (with the packages it imports and production React), then the sign-in page rendered with it in each
 * language, dist/login.{en,zh}.html (decision 0037), which the API serves for /login by the `lang`
 * cookie. The API renders a signed-in user's dashboard with the same module at request time
 * (decision 0050). No modulepreload of the sign-in route: measured, fetching the route's chunks
 * beside the entry only delayed the first paint on a phone (they shared its bandwidth) and gained
 * nothing after.
 */
function serverRender(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'server-render',
    apply: (config, env) => env.command === 'build' && !config.build?.ssr,
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const { build } = await import('vite');
      const serverDir = path.join(outDir, SERVER_OUT_DIR);
      await build({
        configFile: false,
        root,
        resolve: { alias: ALIASES },
        // Production React whatever NODE_ENV the API runs with, bundled with every package the
        // page imports: one self-contained module.
        define: { __BUILD_ID__: '""', 'process.env.NODE_ENV': '"production"' },
        ssr: { noExternal: true },
        plugins: [reactRouterProduction(), react(), contractCatalogues()],
        logLevel: 'warn',
        build: {
          ssr: 'src/prerender.tsx',
          outDir: serverDir,
          emptyOutDir: true,
          copyPublicDir: false,
          rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
        },
      });
      const { renderSignIn } = (await import(
        pathToFileURL(path.join(serverDir, 'prerender.mjs')).href
      )) as typeof PrerenderModule;
      const index = readFileSync(path.join(outDir, 'index.html'), 'utf8');
      for (const lng of ['en', 'zh'] as const) {
        const common = JSON.parse(
          readFileSync(path.join(outDir, 'locales', lng, 'common.json'), 'utf8'),
        ) as Record<string, unknown>;
        const { html, title } = await renderSignIn(lng, common);
        const page = index
          .replace('<html lang="en">', `<html lang="${lng}">`)
          .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
          .replace('<div id="root"></div>', `<div id="root">${html}</div>`);
        if (!page.includes(html)) throw new Error('index.html has no empty #root');
        writeWithTwins(path.join(outDir, `login.${lng}.html`), page);
      }
    },
  };
}

/**
 * dist/dashboard.html (decision 0049): index.html with a `modulepreload` of every chunk the
 * dashboard's route needs beyond the entry (the signed-in layout, the page, its loader, their
 * imports). The API serves it for /dashboard to a signed-in user whose landing page it is: those
 * chunks then load beside the entry instead of after it has run, one round trip sooner on a phone.
 */
function preloadDashboard(): Plugin {
  const routeModules = [
    'routes/app/layout.tsx',
    'routes/app/dashboard.tsx',
    'routes/app/dashboard-loader.ts',
  ];
  return {
    name: 'preload-dashboard',
    apply: 'build',
    writeBundle({ dir: outDir = 'dist' }, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (files: string[]) => {
        const seen = new Set<string>();
        const visit = (file: string) => {
          if (seen.has(file)) return;
          seen.add(file);
          for (const imported of byFile.get(file)?.imports ?? []) visit(imported);
        };
        files.forEach(visit);
        return seen;
      };
      const entry = closure(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
      const routes = routeModules.map((module) => {
        const file = path.join(SRC, module);
        const chunk = chunks.find((candidate) => candidate.moduleIds.includes(file));
        if (!chunk) throw new Error(`No chunk holds ${module}`);
        return chunk.fileName;
      });
      const files = [...closure(routes)].filter((file) => !entry.has(file));
      const links = files
        .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
        .join('');
      const index = readFileSync(path.join(outDir, 'index.html'), 'utf8');
      if (!index.includes('</head>')) throw new Error('index.html has no </head>');
      writeWithTwins(
        path.join(outDir, 'dashboard.html'),
        index.replace('</head>', `${links}</head>`),
      );
    },
  };
}

/**
 * Every text asset also as .br (best quality: compressed once, at build) and .gz; the API serves
 * the twin the browser accepts (decision 0018).
 */
const compressAssets = () =>
  compression({
    threshold: 1024,
    algorithms: [
      defineAlgorithm('brotliCompress', {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
      }),
      defineAlgorithm('gzip', { level: 9 }),
    ],
    logLevel: 'silent',
  });

/**
 * The till's page, dist/till.html, by a build of its own after the back office's (DESIGN 8,
 * issue 43): its entry src/till-main.tsx shares no chunk with main.tsx, so its first load is the
 * till alone (React without the router, no shell, no sidebar: first-load.test.ts holds it to
 * 100 kB of gzip), and the back office's chunks stay as they were. Its files go to dist/assets
 * beside the back office's (named by their content), its Vite manifest to
 * dist/.vite/till-manifest.json.
 *
 * With it, what makes the till installable (vite-plugin-pwa): its web manifest
 * (dist/till.webmanifest, start_url /till) and its service worker (dist/till-sw.js, scope /till,
 * registered by features/till/lib/service-worker.ts), which precaches the till's shell: its page,
 * the files of this build, the catalogues and the icons. Nothing else, and never an API answer:
 * no runtime caching; a navigation within its scope gets the cached page.
 */
function tillApp(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'till-app',
    apply: (config, env) => env.command === 'build' && !config.build?.ssr,
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const { build } = await import('vite');
      const files = new Set<string>();
      await build({
        configFile: false,
        root,
        resolve: { alias: ALIASES },
        define: DEFINE,
        logLevel: 'warn',
        plugins: [
          react(),
          tailwindcss(),
          contractCatalogues(),
          {
            name: 'till-files',
            generateBundle(_, bundle) {
              for (const file of Object.keys(bundle)) files.add(file);
            },
          },
          VitePWA({
            injectRegister: false,
            filename: TILL_SERVICE_WORKER,
            manifestFilename: 'till.webmanifest',
            scope: '/till',
            includeManifestIcons: false,
            manifest: {
              id: '/till',
              name: 'Till · Token Back Office',
              short_name: 'Till',
              description: 'The point of sale of a merchant of the token programme.',
              start_url: '/till',
              scope: '/till',
              display: 'standalone',
              orientation: 'any',
              background_color: '#0f172a',
              theme_color: '#0f172a',
              icons: [
                { src: '/till-icon-192.png', sizes: '192x192', type: 'image/png' },
                { src: '/till-icon-512.png', sizes: '512x512', type: 'image/png' },
                {
                  src: '/till-icon-maskable-512.png',
                  sizes: '512x512',
                  type: 'image/png',
                  purpose: 'maskable',
                },
                { src: '/till-icon.svg', sizes: 'any', type: 'image/svg+xml' },
              ],
            },
            workbox: {
              globDirectory: outDir,
              globPatterns: [TILL_PAGE, 'till-icon*', 'locales/*/common.json', 'assets/*.{js,css}'],
              // Of dist/assets, only this build's files: the back office's are not the till's.
              manifestTransforms: [
                (entries) => ({
                  manifest: entries.filter(
                    (entry) => !entry.url.startsWith('assets/') || files.has(entry.url),
                  ),
                  warnings: [],
                }),
              ],
              // The catalogues are asked for with the build's id (`?v=`), cached without it.
              ignoreURLParametersMatching: [/^v$/],
              navigateFallback: `/${TILL_PAGE}`,
              navigateFallbackAllowlist: [/^\/till\/?$/],
              runtimeCaching: [],
              cleanupOutdatedCaches: true,
              inlineWorkboxRuntime: true,
              sourcemap: false,
            },
          }),
          compressAssets(),
        ],
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          manifest: TILL_MANIFEST,
          sourcemap: process.env.TILL_SOURCEMAP === '1',
          // Terser, two passes: 2 kB of gzip below esbuild's minification over the first load,
          // which is held to 100 kB (first-load.test.ts); a few seconds more of build.
          minify: 'terser',
          terserOptions: { compress: { passes: 2 }, module: true },
          rollupOptions: {
            // The entry's chunk is till-app-….js (the back office has a till-….js route chunk).
            input: { 'till-app': path.join(root, TILL_PAGE) },
            output: {
              experimentalMinChunkSize: 4_000,
              manualChunks: (id) =>
                /node_modules\/(react|react-dom|scheduler)\//.test(id) ? 'react' : undefined,
            },
          },
        },
      });
    },
  };
}

/**
 * `npm run dev`: /till is the till's page (till.html), as the API serves it in production
 * (apps/api/src/app.ts).
 */
function tillDevPage(): Plugin {
  return {
    name: 'till-dev-page',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        if (request.url && /^\/till\/?(\?|$)/.test(request.url)) {
          request.url = request.url.replace(/^\/till\/?/, `/${TILL_PAGE}`);
        }
        next();
      });
    },
  };
}

export default defineConfig({
  plugins: [
    reactRouterProduction(),
    react(),
    tailwindcss(),
    contractCatalogues(),
    serverRender(),
    preloadDashboard(),
    compressAssets(),
    tillApp(),
    tillDevPage(),
  ],
  resolve: { alias: ALIASES },
  // The build's id, the same in the till's build (`tillApp`).
  define: DEFINE,
  server: {
    // `npm run dev -w apps/api` serves the API on 3000 by default (DESIGN 5).
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks a route loads, for the first-load budget
    // (src/first-load.test.ts). Not served (a dot directory).
    manifest: true,
    rollupOptions: {
      output: {
        // Chunks under 4 kB merged into others where that runs no other side effects (decision
        // 0037): the dashboard's first load was 24 files of about 1 kB, which a phone on HTTP/1.1
        // (six connections) fetches in waves of round trips; now 15, and slightly fewer bytes.
        experimentalMinChunkSize: 4_000,
        // React and the router change far less often than the app: a chunk of their own stays
        // cached across deployments.
        // TanStack Query is a chunk of its own too (decision 0044): the signed-in screens load it,
        // the sign-in page does not, and left to the merging above its modules went into chunks
        // with the app's own code the sign-in page needs.
        // Its mutations and infinite lists are a third (decision 0060): the screens that change
        // or page through data use them, the dashboard's first load does not.
        manualChunks: (id) => {
          if (/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)) return 'react';
          if (QUERY_LATER.test(id)) return 'query-later';
          if (/node_modules\/@tanstack\/(query-core|react-query)\//.test(id)) return 'query';
          return undefined;
        },
      },
    },
  },
});
