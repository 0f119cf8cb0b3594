// The API's architecture, checked (issues 13, 40): no import cycles; one door per module
// (decision 0075): another module, app.ts, plugins, seed, scripts and test helpers reach a module
// only through `modules/<m>/index.ts`; the graph of modules has no loop; plugins reach no module but
// the terminals'; only the ledger module and the migrations write the ledger's tables; the bench
// enters the API through one declared door. dependency-cruiser reads the import graph (type-only
// imports included); each rule is also run on a small fixture that breaks it, so a rule that could
// never fail would show here. The door and plugin rules are lint rules too (eslint.config.js), so an
// editor shows them; this test runs them on the fixture.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IForbiddenRuleType, type IReporterOutput } from 'dependency-cruiser';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const FIXTURE = 'apps/api/test/fixtures/architecture';

interface Layout {
  /** The API's source folder, relative to the repository. */
  src: string;
  /** The benchmarks' folder and the one API file they may import. */
  bench: string;
  benchEntry: string;
  /** Other folders that reach modules (the test helpers, the scripts). */
  others: string[];
  /** What the import graph leaves out, besides tests. */
  exclude?: string;
}

const esc = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The one loop of modules allowed, named as `moduleLoops` names it (`a ↔ b`) with its reason here,
 * or none. There is none: the loops there were (tokens ↔ approvals, exports ↔ settlements,
 * iam ↔ users) were broken by moving the shared piece to its owner (decision 0075).
 */
const MODULE_LOOP_EXCEPTION: string | undefined = undefined;

function rulesFor({ src, bench, benchEntry, others }: Layout): IForbiddenRuleType[] {
  const s = esc(src);
  const door = `^${s}/modules/[^/]+/index\\.ts$`;
  return [
    { name: 'no-cycle', severity: 'error', from: { path: `^${s}/` }, to: { circular: true } },
    {
      name: 'module-imports-another-module-past-its-door',
      severity: 'error',
      from: { path: `^${s}/modules/([^/]+)/` },
      to: { path: `^${s}/modules/`, pathNot: [`^${s}/modules/$1/`, door] },
    },
    {
      name: 'outside-modules-imports-past-a-door',
      severity: 'error',
      from: { path: [`^${s}/`, ...others.map((o) => `^${esc(o)}/`)], pathNot: `^${s}/modules/` },
      to: { path: `^${s}/modules/`, pathNot: door },
    },
    {
      // The auth plugin is handed iam's session functions by app.ts; the terminal-key plugin
      // resolves a key through the terminals' door.
      name: 'plugin-imports-a-module-other-than-terminals',
      severity: 'error',
      from: { path: `^${s}/plugins/` },
      to: { path: `^${s}/modules/`, pathNot: `^${s}/modules/terminals/index\\.ts$` },
    },
    {
      name: 'bench-imports-api-internals',
      severity: 'error',
      from: { path: `^${esc(bench)}/` },
      to: { path: '^apps/api/', pathNot: `^${esc(benchEntry)}$` },
    },
  ];
}

interface Cruised {
  /** `rule: from → to` for every violation of the layout's rules. */
  violations: string[];
  /** Which module imports which: `modules/<m>/` names, each with the modules it imports. */
  modules: Map<string, Set<string>>;
}

async function cruised(layout: Layout): Promise<Cruised> {
  const result = await cruise([layout.src, layout.bench, ...layout.others], {
    baseDir: REPO,
    validate: true,
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(apps|bench|packages)/',
    exclude: { path: layout.exclude ? `\\.test\\.tsx?$|${layout.exclude}` : '\\.test\\.tsx?$' },
    ruleSet: { forbidden: rulesFor(layout) },
  });
  const output = result.output as IReporterOutput['output'];
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text');
  const violations = output.summary.violations.map((v) => {
    const chain = v.cycle?.length ? ` (${v.cycle.map((c) => c.name).join(' → ')})` : '';
    return `${v.rule.name}: ${v.from} → ${v.to}${chain}`;
  });
  const moduleOf = (file: string) =>
    new RegExp(`^${esc(layout.src)}/modules/([^/]+)/`).exec(file)?.[1];
  const modules = new Map<string, Set<string>>();
  for (const file of output.modules) {
    const from = moduleOf(file.source);
    if (!from) continue;
    const imports = modules.get(from) ?? new Set<string>();
    modules.set(from, imports);
    for (const dependency of file.dependencies) {
      const to = moduleOf(dependency.resolved);
      if (to && to !== from) imports.add(to);
    }
  }
  return { violations, modules };
}

/**
 * The loops of the graph of modules, each named by its modules in order (`a ↔ b`), but the one
 * `exception`: the strongly connected parts of the graph with more than one module (Tarjan).
 */
function moduleLoops(graph: Map<string, Set<string>>, exception?: string): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    for (let top = stack.pop()!; ; top = stack.pop()!) {
      part.push(top);
      if (top === node) break;
    }
    if (part.length > 1) loops.push(part.sort().join(' ↔ '));
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return loops.filter((loop) => loop !== exception).sort();
}

/** `file: door|plugin` for each finding of the lint rules of eslint.config.js in `dir`. */
async function lintFindings(dir: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: REPO, ignore: false });
  const results = await eslint.lintFiles([dir]);
  return results
    .flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'no-restricted-imports')
        .map((m) => {
          const kind = m.message.includes('A plugin imports') ? 'plugin' : 'door';
          return `${path.relative(path.join(REPO, dir), r.filePath)}: ${kind}`;
        }),
    )
    .sort();
}

// ------------------------------------------------------------------------------------------------
// Who writes the ledger: a text rule (SQL lives in template strings, which no import graph shows).

const LEDGER_TABLES = 'token_transactions|monthly_resets';
const LEDGER_COLUMNS = 'token_balance|available_tokens|refunded_amount';
const LEDGER_WRITES: RegExp[] = [
  new RegExp(`\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|TRUNCATE)\\s+(${LEDGER_TABLES})\\b`, 'i'),
  new RegExp(`\\bCOPY\\s+(${LEDGER_TABLES})\\b`, 'i'),
  new RegExp(`\\bSET\\s+(?:[\\w.]+\\s*=\\s*[^,;]+,\\s*)*(?:\\w+\\.)?(${LEDGER_COLUMNS})\\s*=`, 'i'),
  /\.(insert|update|delete)\(\s*(tokenTransactions|monthlyResets)\s*\)/,
  /\.set\(\s*\{[^}]*\b(tokenBalance|availableTokens|refundedAmount)\s*:/,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|sql)$/.test(entry) && !/\.test\.ts$/.test(entry) ? [full] : [];
  });
}

/** Files under `src` that write a ledger table, outside `modules/ledger` and `db/migrations`. */
function ledgerWritersOutsideTheLedger(src: string): string[] {
  const root = path.join(REPO, src);
  return sourceFiles(root)
    .map((file) => path.relative(root, file))
    .filter((rel) => !/^(modules\/ledger|db\/migrations)\//.test(rel))
    .filter((rel) => {
      const text = readFileSync(path.join(root, rel), 'utf8');
      return LEDGER_WRITES.some((pattern) => pattern.test(text));
    });
}

// ------------------------------------------------------------------------------------------------

const API: Layout = {
  src: 'apps/api/src',
  bench: 'bench',
  benchEntry: 'apps/api/test/bench-entry.ts',
  others: ['apps/api/test', 'apps/api/scripts'],
  exclude: '^apps/api/test/fixtures/',
};
const BROKEN: Layout = {
  src: `${FIXTURE}/src`,
  bench: `${FIXTURE}/bench`,
  benchEntry: `${FIXTURE}/src/bench-entry.ts`,
  others: [],
};

describe('the API architecture', () => {
  it('holds for the API and the bench', async () => {
    const { violations, modules } = await cruised(API);
    expect(violations).toEqual([]);
    expect(moduleLoops(modules, MODULE_LOOP_EXCEPTION)).toEqual([]);
    // The graph it judged is the real one: the doors are used.
    expect([...(modules.get('tokens') ?? [])].sort()).toEqual([
      'approvals',
      'companies',
      'ledger',
      'transactions',
    ]);
  });

  it('lets only the ledger module and the migrations write the ledger tables', () => {
    expect(ledgerWritersOutsideTheLedger(API.src)).toEqual([]);
    // The rule sees the writers it is meant to see.
    const inLedger = sourceFiles(path.join(REPO, 'apps/api/src/modules/ledger')).filter((f) =>
      LEDGER_WRITES.some((pattern) => pattern.test(readFileSync(f, 'utf8'))),
    );
    expect(inLedger.length).toBeGreaterThan(0);
  });

  it('reports each kind of violation in a fixture built to break every rule', async () => {
    const { violations, modules } = await cruised(BROKEN);
    const rulesBroken = [...new Set(violations.map((line) => line.split(':')[0]))].sort();
    expect(rulesBroken).toEqual([
      'bench-imports-api-internals',
      'module-imports-another-module-past-its-door',
      'no-cycle',
      'outside-modules-imports-past-a-door',
      'plugin-imports-a-module-other-than-terminals',
    ]);
    // bag ↔ cart go through their doors and make no loop of files, yet a loop of modules.
    expect(moduleLoops(modules)).toEqual(['bag ↔ cart', 'shop ↔ till']);
    expect(moduleLoops(modules, 'bag ↔ cart')).toEqual(['shop ↔ till']);
    expect(ledgerWritersOutsideTheLedger(BROKEN.src)).toEqual(['modules/shop/shop.repository.ts']);
  });

  it('has the door and plugin rules in lint, which see the fixture break them', async () => {
    expect(await lintFindings(`${FIXTURE}/src`)).toEqual([
      'lib/helper.ts: door',
      'modules/shop/shop.service.ts: door',
      'modules/till/till.repository.ts: door',
      'plugins/guard.ts: plugin',
    ]);
  });
});
