// Each module owns its SQL (issue 40): a module's SQL, in its sql/*.sql files or in its
// TypeScript, calls only its own functions or those of a module it imports, and the migrator
// applies a module's definitions after those of every module whose functions its files call. The
// import graph is read from the modules' TypeScript (type-only imports included, tests left out);
// the rule is also run on a small fixture that breaks it, so a rule that could never fail would
// show here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFINITION_MODULES } from './db/migrate';

const SRC = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.resolve(SRC, '../test/fixtures/sql-ownership/src');

const DECLARATION = /CREATE OR REPLACE FUNCTION public\.(\w+)\(/g;
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'([^']+)'/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** Text without its comments, so that a function named in a comment is not a call. */
function code(file: string): string {
  const text = readFileSync(file, 'utf8');
  return file.endsWith('.sql')
    ? text.replace(/--.*$/gm, '')
    : text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

interface Module {
  name: string;
  /** Its SQL files and its TypeScript, tests left out. */
  sqlFiles: string[];
  tsFiles: string[];
  /** The functions its sql/*.sql files declare. */
  declares: Set<string>;
  /** The other modules its TypeScript imports. */
  imports: Set<string>;
}

function readModules(src: string): Module[] {
  const modulesDir = path.join(src, 'modules');
  return readdirSync(modulesDir)
    .filter((name) => statSync(path.join(modulesDir, name)).isDirectory())
    .sort()
    .map((name) => {
      const files = filesUnder(path.join(modulesDir, name));
      const sqlFiles = files.filter((f) => f.endsWith('.sql'));
      const tsFiles = files.filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
      const declares = new Set(
        sqlFiles.flatMap((f) =>
          [...readFileSync(f, 'utf8').matchAll(DECLARATION)].map((m) => m[1]!),
        ),
      );
      const imports = new Set<string>();
      for (const file of tsFiles) {
        for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
          if (!specifier!.startsWith('.')) continue;
          const target = path.relative(modulesDir, path.resolve(path.dirname(file), specifier!));
          const [other] = target.split(path.sep);
          if (!target.startsWith('..') && other && other !== name) imports.add(other);
        }
      }
      return { name, sqlFiles, tsFiles, declares, imports };
    });
}

/** `module → owner: function (file)` for every call of another module's function it may not make. */
function callsOutsideImports(src: string): string[] {
  const modules = readModules(src);
  const owners = new Map(
    modules.flatMap((m) => [...m.declares].map((fn) => [fn, m.name] as const)),
  );
  const found: string[] = [];
  for (const m of modules) {
    for (const file of [...m.sqlFiles, ...m.tsFiles]) {
      const text = code(file);
      for (const [fn, owner] of owners) {
        if (owner === m.name || m.imports.has(owner)) continue;
        if (new RegExp(`\\b${fn}\\s*\\(`).test(text)) {
          found.push(`${m.name} → ${owner}: ${fn} (${path.relative(src, file)})`);
        }
      }
    }
  }
  return found.sort();
}

/** `module before owner` for every module whose SQL files call a module applied after it. */
function appliedBeforeWhatTheyCall(src: string, order: readonly string[]): string[] {
  const modules = readModules(src);
  const owners = new Map(
    modules.flatMap((m) => [...m.declares].map((fn) => [fn, m.name] as const)),
  );
  const found = new Set<string>();
  for (const m of modules) {
    const text = m.sqlFiles.map(code).join('\n');
    for (const [fn, owner] of owners) {
      if (owner === m.name || !new RegExp(`\\b${fn}\\s*\\(`).test(text)) continue;
      if (order.indexOf(owner) > order.indexOf(m.name)) found.add(`${m.name} before ${owner}`);
    }
  }
  return [...found].sort();
}

describe('each module owns its SQL', () => {
  it('calls only its own functions or those of a module it imports', () => {
    expect(callsOutsideImports(SRC)).toEqual([]);
    // The rule sees the calls it is meant to see: the orders' statement calls the terminals' key
    // check and the ledger's orders; the ledger's orders write the webhooks' outbox.
    const modules = new Map(readModules(SRC).map((m) => [m.name, m]));
    expect([...modules.get('orders')!.imports]).toEqual(
      expect.arrayContaining(['ledger', 'terminals']),
    );
    expect([...modules.get('ledger')!.imports]).toContain('webhooks');
    expect(modules.get('terminals')!.declares).toContain('check_terminal_keys');
  });

  it('is applied after the modules whose functions it calls', () => {
    expect(appliedBeforeWhatTheyCall(SRC, DEFINITION_MODULES)).toEqual([]);
    expect(appliedBeforeWhatTheyCall(SRC, [...DEFINITION_MODULES].reverse())).not.toEqual([]);
  });

  it('reports a module that calls a function of a module it does not import', () => {
    expect(callsOutsideImports(FIXTURE)).toEqual([
      'till → shop: shop_total (modules/till/sql/tills.sql)',
      'till → shop: shop_total (modules/till/till.repository.ts)',
    ]);
    expect(appliedBeforeWhatTheyCall(FIXTURE, ['shop', 'till', 'counter'])).toEqual([]);
    expect(appliedBeforeWhatTheyCall(FIXTURE, ['till', 'counter', 'shop'])).toEqual([
      'counter before shop',
      'till before shop',
    ]);
  });
});
