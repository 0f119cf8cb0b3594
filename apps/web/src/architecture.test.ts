import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { cruise, type IReporterOutput } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(new URL(import.meta.url).pathname);
const SHARED = ['components', 'config', 'hooks', 'lib', 'locales'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [full] : [];
  });
}

const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'|import\('([^']+)'\)/g)].map(
    (match) => match[1] ?? match[2] ?? '',
  );

/** Where an import lands, as a path under src/ (or the bare package name). */
function target(file: string, specifier: string): string {
  if (specifier.startsWith('@/')) return specifier.slice(2);
  if (specifier.startsWith('.'))
    return path.relative(SRC, path.resolve(path.dirname(file), specifier));
  return specifier;
}

const area = (relative: string) => relative.split(path.sep)[0] ?? '';

describe('the one-way imports (shared → features → routes)', () => {
  it('keep shared code from importing features or routes', () => {
    const offending = SHARED.flatMap((dir) =>
      sourceFiles(path.join(SRC, dir)).flatMap((file) =>
        importsOf(file)
          .map((specifier) => target(file, specifier))
          .filter((to) => ['features', 'routes'].includes(area(to)))
          .map((to) => `${path.relative(SRC, file)} → ${to}`),
      ),
    );
    expect(offending).toEqual([]);
  });

  it('keep features from importing each other or the routes', () => {
    const offending = sourceFiles(path.join(SRC, 'features')).flatMap((file) => {
      const feature = path.relative(SRC, file).split(path.sep)[1];
      return importsOf(file)
        .map((specifier) => target(file, specifier))
        .filter((to) => {
          const parts = to.split(path.sep);
          return parts[0] === 'routes' || (parts[0] === 'features' && parts[1] !== feature);
        })
        .map((to) => `${path.relative(SRC, file)} → ${to}`);
    });
    expect(offending).toEqual([]);
  });
});

describe('the calls to the API', () => {
  const relative = (file: string) => path.relative(SRC, file);

  it('take the generated paths from @app/client as types only, so none of it is bundled', () => {
    const valueImport =
      /^\s*(import|export)\s+(?!type\b)[^;]*?from\s+'@app\/client[^']*'|import\('@app\/client/m;
    const offending = sourceFiles(SRC)
      .filter((file) => valueImport.test(readFileSync(file, 'utf8')))
      .map(relative);
    expect(offending).toEqual([]);
  });

  it('go through the typed client: only lib/api-client.ts uses the transport', () => {
    const offending = sourceFiles(SRC)
      .filter((file) => relative(file) !== path.join('lib', 'api-client.ts'))
      .filter((file) =>
        importsOf(file).some(
          (specifier) => target(file, specifier) === path.join('lib', 'transport'),
        ),
      )
      .map(relative);
    expect(offending).toEqual([]);
  });
});

/**
 * Every import cycle under `dir` (relative to apps/web), as `a → b → a`: eager, lazy `import()`
 * and type-only imports alike, the `@/` alias resolved through tsconfig.json.
 */
async function cruiseWeb(dir: string) {
  const web = path.resolve(SRC, '..');
  const tsConfigFile = path.join(web, 'tsconfig.json');
  const result = await cruise(
    [dir],
    {
      baseDir: web,
      validate: true,
      tsPreCompilationDeps: true,
      tsConfig: { fileName: tsConfigFile },
      doNotFollow: { path: 'node_modules' },
      exclude: { path: '\\.test\\.tsx?$' },
      ruleSet: {
        forbidden: [{ name: 'no-cycle', severity: 'error', from: {}, to: { circular: true } }],
      },
    },
    undefined,
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
  const output = result.output as IReporterOutput['output'];
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text');
  return output;
}

async function importCycles(dir: string): Promise<string[]> {
  return (await cruiseWeb(dir)).summary.violations.map(
    (v) => `${v.from} → ${(v.cycle ?? []).map((c) => c.name).join(' → ')}`,
  );
}

describe('the import graph', () => {
  it('has no cycle: eager, lazy or type-only', async () => {
    expect(await importCycles('src')).toEqual([]);
    // The graph is whole: `@/` imports and lazy routes resolve to their files.
    const routes = (await cruiseWeb('src')).modules.find(
      (m) => m.source === 'src/routes/index.tsx',
    );
    const resolved = routes?.dependencies.map((d) => d.resolved) ?? [];
    expect(resolved).toContain('src/config/paths.ts');
    expect(resolved).toContain('src/routes/app/layout.tsx');
  });

  it('finds each kind of cycle in a fixture built with them', async () => {
    const found = (await importCycles('test/fixtures/import-cycles')).join('\n');
    expect(found).toMatch(/eager-a\.ts → .*eager-b\.ts/);
    expect(found).toMatch(/lazy-menu\.ts → .*lazy-overlay\.ts/);
    expect(found).toMatch(/types-routes\.ts → .*types-layout\.ts/);
  });
});
