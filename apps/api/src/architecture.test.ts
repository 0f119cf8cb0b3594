// The API's architecture, checked (issue 13): no import cycles; a module reaches another module
// through its service, never its repository; plugins reach modules only through the two session
// services; only the ledger module and the migrations write the ledger's tables; the bench enters
// the API through one declared door. dependency-cruiser reads the import graph (type-only imports
// included); each rule is also run on a small fixture that breaks it, so a rule that could never
// fail would show here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IForbiddenRuleType, type IReporterOutput } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const FIXTURE = 'apps/api/test/fixtures/architecture';

interface Layout {
  /** The API's source folder, relative to the repository. */
  src: string;
  /** The benchmarks' folder and the one API file they may import. */
  bench: string;
  benchEntry: string;
}

const esc = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Repositories another module may import, each as `from -> to` with a comment saying why. It is
 * empty: every module reaches another through its service (the exports read the employees list's
 * own batches, for instance), and a new entry needs a reason a reviewer accepts.
 */
const REPOSITORY_ALLOW_LIST: string[] = [];

function rulesFor({ src, bench, benchEntry }: Layout): IForbiddenRuleType[] {
  const s = esc(src);
  return [
    { name: 'no-cycle', severity: 'error', from: { path: `^${s}/` }, to: { circular: true } },
    {
      name: 'module-imports-another-modules-repository',
      severity: 'error',
      from: { path: `^${s}/modules/([^/]+)/` },
      to: {
        path: `^${s}/modules/[^/]+/[^/]+\\.repository\\.ts$`,
        // The allow-list is applied to the findings (`violations`), pair by pair.
        pathNot: `^${s}/modules/$1/`,
      },
    },
    {
      name: 'outside-modules-imports-a-repository',
      severity: 'error',
      from: { path: `^${s}/(plugins|lib|seed|config)/` },
      to: { path: `^${s}/modules/[^/]+/[^/]+\\.repository\\.ts$` },
    },
    {
      // The auth plugins resolve a credential to a principal: a cookie through iam's sessions
      // service (with its cookie and token helpers), a terminal key through the terminals'.
      name: 'plugin-imports-a-module-other-than-sessions',
      severity: 'error',
      from: { path: `^${s}/plugins/` },
      to: {
        path: `^${s}/modules/`,
        pathNot: [
          `^${s}/modules/iam/(sessions\\.service|session-cookies|session-tokens)\\.ts$`,
          `^${s}/modules/terminals/terminal-sessions\\.service\\.ts$`,
        ],
      },
    },
    {
      name: 'bench-imports-api-internals',
      severity: 'error',
      from: { path: `^${esc(bench)}/` },
      to: { path: '^apps/api/', pathNot: `^${esc(benchEntry)}$` },
    },
  ];
}

/** `rule: from → to` for every violation of `rules` in `paths` (relative to the repository). */
async function violations(paths: string[], rules: IForbiddenRuleType[]): Promise<string[]> {
  const result = await cruise(paths, {
    baseDir: REPO,
    validate: true,
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(apps|bench|packages)/',
    exclude: { path: '\\.test\\.tsx?$' },
    ruleSet: { forbidden: rules },
  });
  const output = result.output as IReporterOutput['output'];
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text');
  const allowed = new Set(REPOSITORY_ALLOW_LIST);
  return output.summary.violations
    .map((v) => {
      const chain = v.cycle?.length ? ` (${v.cycle.map((c) => c.name).join(' → ')})` : '';
      return `${v.rule.name}: ${v.from} → ${v.to}${chain}`;
    })
    .filter((line) => {
      const [, from = '', to = ''] = /: (\S+) → (\S+)/.exec(line) ?? [];
      const rel = (p: string) => p.replace(/^apps\/api\/src\//, '');
      return !allowed.has(`${rel(from)} -> ${rel(to)}`);
    });
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
};
const BROKEN: Layout = {
  src: `${FIXTURE}/src`,
  bench: `${FIXTURE}/bench`,
  benchEntry: `${FIXTURE}/src/bench-entry.ts`,
};

describe('the API architecture', () => {
  it('holds for the API and the bench', async () => {
    expect(await violations([API.src, API.bench], rulesFor(API))).toEqual([]);
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
    const found = await violations([BROKEN.src, BROKEN.bench], rulesFor(BROKEN));
    const rulesBroken = [...new Set(found.map((line) => line.split(':')[0]))].sort();
    expect(rulesBroken).toEqual([
      'bench-imports-api-internals',
      'module-imports-another-modules-repository',
      'no-cycle',
      'outside-modules-imports-a-repository',
      'plugin-imports-a-module-other-than-sessions',
    ]);
    expect(ledgerWritersOutsideTheLedger(BROKEN.src)).toEqual(['modules/shop/shop.repository.ts']);
  });
});
