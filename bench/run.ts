/**
 * npm run bench [-- --seconds 15 --read-calls 100 --import-rows 100000 --out bench]
 *               [--pair-rounds 2 --till-concurrencies 8,32 --till-devices 30000]
 *               [--scenarios order-rules,till]
 *
 * Runs the scenarios of issue 6 on the programme `npm run bench:data` generated and writes
 * bench/results.json and the figures part of bench/RESULTS.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBench, SCENARIO_NAMES, type BenchResults, type ScenarioName } from './lib/bench';
import { SEPARATE_LABELS, separateTargets } from './lib/separate-runs';
import { BENCH_DATABASE_URL } from './lib/database';
import { argument } from './lib/options';
import { writeResults } from './lib/report';

const here = path.dirname(fileURLToPath(import.meta.url));

/** `--scenarios a,b`: only those, over the figures of the results.json already in `out`. */
function onlyOption(
  out: string,
): { scenarios: Set<ScenarioName>; previous: BenchResults } | undefined {
  const given = argument('scenarios');
  if (!given) return undefined;
  const scenarios = new Set(given.split(',').map((name) => name.trim()));
  for (const name of scenarios) {
    if (!(SCENARIO_NAMES as readonly string[]).includes(name)) {
      throw new Error(`--scenarios takes ${SCENARIO_NAMES.join(', ')}, not ${name}`);
    }
  }
  const file = path.join(out, 'results.json');
  if (!fs.existsSync(file)) throw new Error(`--scenarios needs a previous ${file} to complete`);
  const previous = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchResults;
  return { scenarios: scenarios as Set<ScenarioName>, previous };
}

async function main() {
  const log = (message: string) => console.log(message);
  const out = path.resolve(argument('out') ?? here);
  const results = await runBench({
    databaseUrl: BENCH_DATABASE_URL,
    orderConcurrencies: (argument('concurrencies') ?? '8,32,128').split(',').map(Number),
    orderSeconds: Number(argument('seconds') ?? 15),
    warmUpSeconds: Number(argument('warm-up-seconds') ?? 5),
    readCalls: Number(argument('read-calls') ?? 100),
    importRows: Number(argument('import-rows') ?? 100_000),
    pairRounds: Number(argument('pair-rounds') ?? 2),
    tillConcurrencies: (argument('till-concurrencies') ?? '8,32').split(',').map(Number),
    tillDevices: Number(argument('till-devices') ?? 30_000),
    log,
    only: onlyOption(out),
  });
  // The soak's and Lighthouse's rows, from their own runs' files (and the targets no run measures).
  results.targets = [
    ...results.targets.filter((t) => !SEPARATE_LABELS.includes(t.scenario)),
    ...separateTargets(out),
  ];
  writeResults(out, results);
  log('');
  for (const t of results.targets) {
    log(
      `${t.isMet ? 'met    ' : 'MISSED '} ${t.scenario}: ${t.measure}: ${t.value} (target ${t.target})`,
    );
  }
  log(`\nwrote ${path.join(out, 'results.json')} and ${path.join(out, 'RESULTS.md')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
