import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { buildWebIfNeeded, DIST_DIR, MANIFEST, TILL_MANIFEST } from '../e2e/build';

const SRC = path.dirname(new URL(import.meta.url).pathname);
const CONTRACT = path.resolve(SRC, '../../../packages/contract');
const CONTRACT_EXPORTS = (
  JSON.parse(readFileSync(path.join(CONTRACT, 'package.json'), 'utf8')) as {
    exports: Record<string, string>;
  }
).exports;

/** What the browser runs before a route renders: the entry and the route modules it loads. */
const FIRST_LOAD = {
  login: ['main.tsx', 'routes/login.tsx'],
  dashboard: ['main.tsx', 'routes/app/layout.tsx', 'routes/app/dashboard.tsx'],
};

/**
 * Fetched after the first render or when needed, never with the first load: the schema library
 * (forms), the toasts, the alert dialog, and Radix's overlays (menus, tooltips, sheets: with
 * popper, floating-ui and the focus and scroll locks). axios is gone for the platform's fetch.
 */
const DEFERRED = [
  'zod',
  '@hookform/resolvers',
  'react-hook-form',
  'sonner',
  'axios',
  'components/ui/alert-dialog.tsx',
  'components/ui/dropdown-menu.tsx',
  'components/ui/sheet.tsx',
  'components/ui/tooltip.tsx',
  // The month picker's popover comes on its first opening (decision 0037).
  'components/ui/popover.tsx',
  'components/date-picker/date-field.tsx',
  // The contract's catalogues in both languages: a page loads its language's chunk instead
  // (locales/fetch-backend.ts, decision 0044).
  'locales/contract-resources.ts',
  // tailwind-merge comes after the first paint (decisions 0049 and 0058): the sign-in page, the
  // signed-in shell and the dashboard pass no class that overrides another (prerender.test.tsx);
  // every other screen waits for it (lib/class-merge-ready.ts).
  'tailwind-merge',
  'lib/class-merge.ts',
  // TanStack Query loads after the first paint (decision 0060): the shell's and the dashboard's
  // queries answer from the server's drawing until then (lib/late-query.ts), and the other screens
  // come inside its provider (lib/with-query-client.tsx).
  '@tanstack/react-query',
  'lib/query-client.ts',
];

/**
 * Not on the sign-in page either (decision 0026): the form library's bindings (the login form
 * has plain inputs) and the date library (its formats are the app's, not sign-in's); nor the
 * contract's error catalogue (decision 0044: errors are looked up in the `errors` namespace).
 */
const DEFERRED_FROM_SIGN_IN = [
  'components/ui/form.tsx',
  'dayjs',
  'lib/format.ts',
  '../../../packages/contract/src/errors.ts',
];

function resolveFile(base: string): string {
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  for (const candidate of candidates) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`Cannot resolve ${base}`);
}

/** A file for our own modules, else the npm package the specifier names. */
function resolve(from: string, specifier: string): { file?: string; pkg?: string } {
  if (specifier.startsWith('@/')) return { file: resolveFile(path.join(SRC, specifier.slice(2))) };
  if (specifier.startsWith('.'))
    return { file: resolveFile(path.resolve(path.dirname(from), specifier)) };
  if (specifier === '@app/contract' || specifier.startsWith('@app/contract/')) {
    const target = CONTRACT_EXPORTS[`.${specifier.slice('@app/contract'.length)}`];
    if (!target) throw new Error(`@app/contract does not export ${specifier}`);
    return { file: path.join(CONTRACT, target) };
  }
  const parts = specifier.split('/');
  return { pkg: specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0] };
}

type Names = readonly string[] | '*';
/** One module a file needs: its specifier and the bindings taken from it (`*`: all of them). */
interface Edge {
  specifier: string;
  names: Names;
  /** For `export { a as b } from`: the name exported here → the name in the target. */
  renamed?: Map<string, string>;
}

const nameOf = (element: ts.ImportSpecifier | ts.ExportSpecifier) => element.name.text;
const importedName = (element: ts.ImportSpecifier | ts.ExportSpecifier) =>
  (element.propertyName ?? element.name).text;

/**
 * The value imports and re-exports of a file (not types, not `import()`), and whether the file
 * is only a barrel of re-exports: then, as for the bundler, only the re-exports a caller asks
 * for count.
 */
function edgesOf(file: string): { barrel: boolean; edges: Edge[] } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const edges: Edge[] = [];
  let barrel = true;
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      barrel = false;
      const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
      const clause = statement.importClause;
      if (specifier.endsWith('.css') || clause?.isTypeOnly) continue;
      const bindings = clause?.namedBindings;
      if (!clause || clause.name || (bindings && ts.isNamespaceImport(bindings))) {
        edges.push({ specifier, names: '*' });
      } else if (bindings && ts.isNamedImports(bindings)) {
        const names = bindings.elements.filter((e) => !e.isTypeOnly).map(importedName);
        if (names.length > 0) edges.push({ specifier, names });
      }
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      if (statement.isTypeOnly) continue;
      const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
      const clause = statement.exportClause;
      if (!clause || ts.isNamespaceExport(clause)) {
        edges.push({ specifier, names: '*' });
      } else {
        const values = clause.elements.filter((e) => !e.isTypeOnly);
        edges.push({
          specifier,
          names: values.map(importedName),
          renamed: new Map(values.map((e) => [nameOf(e), importedName(e)])),
        });
      }
    } else {
      barrel = false;
    }
  }
  return { barrel, edges };
}

/**
 * Every npm package and source file (relative to src/) reachable from the roots, with one import
 * chain that reaches it.
 */
function reachedFrom(roots: string[]): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string, names: Names, chain: string[]) => {
    const { barrel, edges } = edgesOf(file);
    // A module runs whole; a barrel only passes on the names asked of it.
    const asked = barrel ? names : '*';
    const key = asked === '*' ? file : `${file}#${[...asked].sort().join(',')}`;
    if (seen.has(key) || seen.has(file)) return;
    seen.add(key);
    if (!reached.has(path.relative(SRC, file))) reached.set(path.relative(SRC, file), chain);
    const here = [...chain, path.relative(SRC, file)];
    for (const edge of edges) {
      let wanted = edge.names;
      if (barrel && asked !== '*') {
        if (edge.renamed) {
          wanted = asked.filter((n) => edge.renamed!.has(n)).map((n) => edge.renamed!.get(n)!);
          if (wanted.length === 0) continue;
        } else {
          wanted = asked;
        }
      }
      const { file: next, pkg } = resolve(file, edge.specifier);
      if (next) visit(next, wanted, here);
      else if (pkg && !reached.has(pkg)) reached.set(pkg, here);
    }
  };
  for (const root of roots) visit(path.join(SRC, root), '*', []);
  return reached;
}

describe('the first load of a route (issue 6; issue 19: sign-in at most 150 kB over the wire)', () => {
  it.each(Object.entries(FIRST_LOAD))('of %s leaves the deferred code out', (route, roots) => {
    const reached = reachedFrom(roots);
    const deferred = route === 'login' ? [...DEFERRED, ...DEFERRED_FROM_SIGN_IN] : DEFERRED;
    const offending = deferred
      .filter((what) => reached.has(what))
      .map((what) => `${[...reached.get(what)!, what].join(' → ')}`);
    expect(offending).toEqual([]);
  });

  it('of the till leaves out the back office, the query library and what comes later', () => {
    const reached = reachedFrom(TILL_FIRST_LOAD);
    const offending = TILL_DEFERRED.filter((what) => reached.has(what)).map(
      (what) => `${[...reached.get(what)!, what].join(' → ')}`,
    );
    expect(offending).toEqual([]);
    // It has what it needs: React, the language, the session, the charge.
    expect([...reached.keys()]).toEqual(
      expect.arrayContaining([
        'react-dom',
        'i18next',
        'lib/transport.ts',
        'lib/auth-store.ts',
        'features/till/pages/till-page.tsx',
        'features/till/lib/use-charge.ts',
      ]),
    );
  });

  it('sees what it is meant to see', () => {
    // Guards the walk itself: what the routes need must be found.
    const reached = reachedFrom(FIRST_LOAD.dashboard);
    expect([...reached.keys()]).toEqual(
      expect.arrayContaining([
        'react',
        'react-dom',
        'react-router',
        'i18next',
        'radix-ui',
        'components/ui/sidebar.tsx',
        'components/ui/button.tsx',
        '../../../packages/contract/src/permissions.ts',
      ]),
    );
  });
});

/**
 * What a route sends before it renders, gzip level 9 as bench/lib/scenarios/web-bundle.ts counts it
 * (issue 16: at most 150 kB each) and brotli as served (issue 19 item 7), a little above what
 * decision 0062 reached (sign-in 120.5 kB gzip and 105.4 kB brotli, the dashboard 143.2 and
 * 126.5), so that growing back fails. The build's id changes a few bytes between builds. The
 * dashboard's budget rose by 0.6 kB: landed main measured 143.9 kB gzip and 127.2 brotli (the
 * money requests' Idempotency-Keys and confirmations), and decision 0077's permissions (spending
 * rules, holidays, declines) add 0.1 kB more. Issue 42's screens (decision 0077) add 0.6 kB brotli
 * and 0.7 kB gzip (measured 128.2 and 145.0): the /spending-rules route and its sidebar entry (a
 * path, a guard, an icon no other code uses) and, above all, the lazy routes' preload lists, longer
 * by the new shared chunks (the rules in words, the form fields); the screens load with their
 * routes. Step-up (decision 0083) adds 0.3 kB to both first loads (main measured sign-in 120.8 kB
 * gzip and 105.6 brotli, the dashboard 144.9 and 128.0; with it 121.1 and 105.9, 145.2 and
 * 128.3): the transport's check of REAUTHENTICATION_REQUIRED and its import of the dialog, whose
 * preload list names the chunk it went into and that chunk's imports. The press kept before the
 * drawn dashboard is taken over (issue 41 item 6, in the entry) adds some 0.3 kB more to both
 * (measured with both: sign-in 121.42 kB gzip and 106.20 brotli, the dashboard 145.55 and 128.59).
 * The merges of the webhooks kit (decision 0084) and the screens (decision 0085) add some 0.2 kB gzip
 * (measured 121.61 and 145.71 kB gzip in CI). OIDC sign-in (decision 0086) adds the sign-in
 * form's "Sign in with …" (the lookup of the typed email's domain, the link) and the identity
 * providers screen's route, path, permission and sidebar entry: measured sign-in 122.41 kB gzip and
 * 107.04 brotli, the dashboard 146.00 and 129.53.
 */
const WIRE_BUDGETS = {
  'src/routes/login.tsx': { gzip: 122_600, brotli: 107_300 },
  // +0.3 kB (decision 0088): the days counted named (the sentence by view, a short day range).
  'src/routes/app/dashboard.tsx': { gzip: 146_500, brotli: 130_100 },
};
/** The route modules the router loads for each page, after the entry. */
const ROUTE_MODULES: Record<keyof typeof WIRE_BUDGETS, string[]> = {
  'src/routes/login.tsx': ['src/routes/login.tsx'],
  'src/routes/app/dashboard.tsx': ['src/routes/app/layout.tsx', 'src/routes/app/dashboard.tsx'],
};

/**
 * The till's page (DESIGN 8, issue 43: at most 100 kB of JavaScript gzip): its own entry
 * (till-main.tsx), built apart (vite.config.ts `tillApp`, its own Vite manifest). Its first load is
 * React without the router, i18next, the session and the charge panel: none of the back office's
 * shell, no query library, no Radix, no date library; the camera's decoder, the day's orders
 * (refunds, receipts) and every overlay come after.
 */
const TILL_FIRST_LOAD = ['till-main.tsx'];
const TILL_DEFERRED = [
  ...DEFERRED,
  'react-router',
  'radix-ui',
  'dayjs',
  'lucide-react',
  'jsqr',
  'lib/router.tsx',
  'components/ui/sidebar.tsx',
  'components/layout/app-shell.tsx',
  'components/ui/button.tsx',
  'features/till/components/camera-scanner.tsx',
  'features/till/components/orders-today.tsx',
  'features/till/components/refund-dialog.tsx',
  'features/till/components/receipt.tsx',
];
/**
 * Measured 30.1 + 68.5 kB gzip, 27.0 + 58.6 brotli (the entry, React) with terser's two passes;
 * a little above, so that growing back fails, and never above the 100 kB.
 */
const TILL_WIRE_BUDGET = { gzip: 99_300, brotli: 86_300 };

interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
}

/**
 * The manifest key of a route module. Rollup may emit a lazy route as a chunk without a facade
 * (shared with code it imports), which Vite keys by its file (`_layout-….js`): found by the one
 * dynamic entry of the module's name, as bench/lib/scenarios/web-bundle.ts does.
 */
function manifestKeyOf(manifest: Record<string, ManifestChunk>, module: string): string {
  if (manifest[module]) return module;
  const name = path.basename(module).replace(/\.[jt]sx?$/, '');
  const candidates = Object.keys(manifest).filter(
    (key) => key.startsWith('_') && manifest[key]!.isDynamicEntry && manifest[key]!.name === name,
  );
  if (candidates.length !== 1) throw new Error(`Not in the Vite manifest: ${module}`);
  return candidates[0]!;
}

/** The JavaScript files the browser loads before a route renders: the entry, the route modules, their imports. */
function firstLoadFiles(manifest: Record<string, ManifestChunk>, routes: string[]): string[] {
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`Not in the Vite manifest: ${key}`);
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  [entry!, ...routes.map((route) => manifestKeyOf(manifest, route))].forEach(visit);
  return [...seen].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
}

/** Bytes on the wire to a browser that accepts brotli: the build's .br twin, else the file. */
const wireBytes = (file: string) => {
  const brotli = path.join(DIST_DIR, `${file}.br`);
  return statSync(existsSync(brotli) ? brotli : path.join(DIST_DIR, file)).size;
};

/** The file gzipped at level 9, as the bench's web scenario weighs it (issue 16). */
const gzipBytes = (file: string) =>
  gzipSync(readFileSync(path.join(DIST_DIR, file)), { level: 9 }).length;

describe('the first load over the wire (issue 19 item 7, decision 0037)', () => {
  it.each(Object.entries(WIRE_BUDGETS))(
    'of %s sends at most its budget of JavaScript before it renders',
    async (route, budget) => {
      // apps/web/dist as the server serves it (CI builds it before the tests; the journeys share it).
      await buildWebIfNeeded();
      const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>;
      const files = firstLoadFiles(manifest, ROUTE_MODULES[route as keyof typeof WIRE_BUDGETS]);
      const sizes = Object.fromEntries(
        files.map((file) => [file, { brotli: wireBytes(file), gzip: gzipBytes(file) }]),
      );
      const total = (kind: 'brotli' | 'gzip') =>
        Object.values(sizes).reduce((sum, size) => sum + size[kind], 0);
      // The react chunk and the entry at least, and the route itself.
      expect(files.length).toBeGreaterThan(2);
      expect(total('brotli'), JSON.stringify(sizes, null, 1)).toBeLessThanOrEqual(budget.brotli);
      expect(total('gzip'), JSON.stringify(sizes, null, 1)).toBeLessThanOrEqual(budget.gzip);
    },
    180_000,
  );
});

describe("the till's first load over the wire (issue 43)", () => {
  it('sends at most 100 kB of JavaScript gzip, the back office none of it', async () => {
    await buildWebIfNeeded();
    const manifest = JSON.parse(readFileSync(TILL_MANIFEST, 'utf8')) as Record<
      string,
      ManifestChunk
    >;
    const files = firstLoadFiles(manifest, []);
    const sizes = Object.fromEntries(
      files.map((file) => [file, { brotli: wireBytes(file), gzip: gzipBytes(file) }]),
    );
    const total = (kind: 'brotli' | 'gzip') =>
      Object.values(sizes).reduce((sum, size) => sum + size[kind], 0);
    // Its entry and React.
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(TILL_WIRE_BUDGET.gzip).toBeLessThanOrEqual(100_000);
    expect(total('brotli'), JSON.stringify(sizes, null, 1)).toBeLessThanOrEqual(
      TILL_WIRE_BUDGET.brotli,
    );
    expect(total('gzip'), JSON.stringify(sizes, null, 1)).toBeLessThanOrEqual(
      TILL_WIRE_BUDGET.gzip,
    );
    // React without the router; none of the back office's files.
    const code = files.map((file) => readFileSync(path.join(DIST_DIR, file), 'utf8')).join('\n');
    expect(code).toContain('useTranslation');
    expect(code).not.toContain('You cannot render a <Router> inside another');
    const backOffice = new Set(
      Object.values(
        JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>,
      ).map((chunk) => chunk.file),
    );
    expect(files.filter((file) => backOffice.has(file))).toEqual([]);
  }, 180_000);

  it("loads the camera's decoder, the orders and the refund dialog in chunks of their own", async () => {
    await buildWebIfNeeded();
    const manifest = JSON.parse(readFileSync(TILL_MANIFEST, 'utf8')) as Record<
      string,
      ManifestChunk
    >;
    const lazy = Object.entries(manifest)
      .filter(([, chunk]) => chunk.isDynamicEntry)
      .map(([key]) => key);
    expect(lazy).toEqual(
      expect.arrayContaining([
        'src/features/till/components/camera-scanner.tsx',
        'src/features/till/components/orders-today.tsx',
      ]),
    );
    // The refund dialog: a chunk of its own, or the one it shares with the step-up dialog (the
    // transport's, decision 0083), named after it.
    expect(lazy.some((key) => /refund-dialog/.test(key))).toBe(true);
    const first = new Set(firstLoadFiles(manifest, []));
    const scanner = manifest['src/features/till/components/camera-scanner.tsx']!;
    expect(first.has(scanner.file)).toBe(false);
    // jsQR is in the scanner's chunk (its binarizer's error).
    expect(readFileSync(path.join(DIST_DIR, scanner.file), 'utf8')).toContain(
      'Malformed data passed to binarizer',
    );
  }, 180_000);
});

describe('React Router in the build (decision 0058)', () => {
  it('is its production build, without the developer warnings its package exports by default', async () => {
    await buildWebIfNeeded();
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>;
    const code = firstLoadFiles(manifest, [])
      .map((file) => readFileSync(path.join(DIST_DIR, file), 'utf8'))
      .join('\n');
    // The router is there (its error for a router inside another)...
    expect(code).toContain('You cannot render a <Router> inside another');
    // ...in its declarative mode, without the data mode's router (decision 0062: lib/router.tsx
    // draws the route table), whose check of its route table goes with it...
    expect(code).not.toContain('routes array to createRouter');
    // ...without what only its development build holds.
    expect(code).not.toContain('You rendered descendant <Routes>');
    expect(code).not.toContain('Hey developer');
    // ...nor the components we do not use, once their factories are marked pure (decision 0060):
    // `NavLink` (its `aria-current`) and `Form` (its multipart encoding)...
    expect(code).not.toContain('aria-current');
    expect(code).not.toContain('multipart/form-data');
    // ...nor `<Link>`'s framework-mode prefetching (its viewport observer).
    expect(code).not.toContain('IntersectionObserver');
  }, 180_000);

  it("is given no `prefetch` to a link: the build's router has no prefetching (decision 0060)", () => {
    const offending: string[] = [];
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) visit(file);
        else if (/\.tsx$/.test(entry.name) && /\bprefetch=/.test(readFileSync(file, 'utf8'))) {
          offending.push(path.relative(SRC, file));
        }
      }
    };
    visit(SRC);
    expect(offending).toEqual([]);
  });
});

describe('what the first load leaves to later chunks (decision 0060)', () => {
  it("sends React's own useSyncExternalStore, not the shim react-i18next imports for React before 18", async () => {
    await buildWebIfNeeded();
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>;
    const code = firstLoadFiles(manifest, [])
      .map((file) => readFileSync(path.join(DIST_DIR, file), 'utf8'))
      .join('\n');
    // react-i18next is there (its hook's warning for a missing instance)...
    expect(code).toContain('useTranslation');
    // ...without the shim's own store (`useState({ inst: { value, getSnapshot } })`).
    expect(code).not.toContain('inst:{value:');
  }, 180_000);

  it("keeps TanStack Query's chunks out of the dashboard's first load", async () => {
    await buildWebIfNeeded();
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>;
    const files = firstLoadFiles(manifest, ROUTE_MODULES['src/routes/app/dashboard.tsx']);
    const chunks = Object.values(manifest).map((chunk) => chunk.file);
    // Its queries' chunk and its mutations' exist; neither is in the first load.
    expect(chunks.some((file) => /\/query-(?!later-)[\w-]+\.js$/.test(file))).toBe(true);
    expect(chunks.some((file) => file.includes('/query-later-'))).toBe(true);
    expect(files.filter((file) => /\/query-[\w-]+\.js$/.test(file))).toEqual([]);
  }, 180_000);
});

describe("the dashboard's page (decision 0049)", () => {
  it('preloads every chunk of its first load beyond the entry, and nothing else', async () => {
    await buildWebIfNeeded();
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>;
    const entry = new Set(firstLoadFiles(manifest, []));
    // The loader's module went into one of these chunks (it has no chunk of its own).
    const route = firstLoadFiles(manifest, ROUTE_MODULES['src/routes/app/dashboard.tsx']).filter(
      (file) => !entry.has(file),
    );
    const page = readFileSync(path.join(DIST_DIR, 'dashboard.html'), 'utf8');
    const preloaded = [...page.matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)">/g)]
      .map((match) => match[1]!)
      .filter((file) => !entry.has(file));
    expect(route.length).toBeGreaterThan(3);
    expect(preloaded.sort()).toEqual(route.sort());
    // Otherwise index.html itself: the same entry, stylesheet and root.
    const index = readFileSync(path.join(DIST_DIR, 'index.html'), 'utf8');
    expect(page.replace(/<link rel="modulepreload" crossorigin href="[^"]+">/g, '')).toBe(
      index.replace(/<link rel="modulepreload" crossorigin href="[^"]+">/g, ''),
    );
  }, 180_000);
});
