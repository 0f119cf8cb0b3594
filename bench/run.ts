/**
 * npm run bench [-- --seconds 15 --read-calls 100 --import-rows 100000 --out bench]
 *
 * Runs the scenarios of issue 6 on the programme `npm run bench:data` generated and writes
 * bench/results.json and the figures part of bench/RESULTS.md.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBench } from './lib/bench';
import { BENCH_DATABASE_URL } from './lib/database';
import { argument } from './lib/options';
import { writeResults } from './lib/report';

const here = path.dirname(fileURLToPath(import.meta.url));

async function main() {
  const log = (message: string) => console.log(message);
  const results = await runBench({
    databaseUrl: BENCH_DATABASE_URL,
    orderConcurrencies: (argument('concurrencies') ?? '8,32,128').split(',').map(Number),
    orderSeconds: Number(argument('seconds') ?? 15),
    warmUpSeconds: Number(argument('warm-up-seconds') ?? 5),
    readCalls: Number(argument('read-calls') ?? 100),
    importRows: Number(argument('import-rows') ?? 100_000),
    log,
  });
  const out = path.resolve(argument('out') ?? here);
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
