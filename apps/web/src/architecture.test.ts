import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
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
