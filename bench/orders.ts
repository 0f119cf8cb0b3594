/**
 * npm run bench:orders [-- --concurrencies 8,32,128 --seconds 15 --runs 3 --out file.json
 *                          --write-results]
 *
 * Scenario 1 alone (terminal orders over HTTP against the pgbench ceiling) on the programme
 * `npm run bench:data` generated, `--runs` times in a row on one API, then the ledger invariants.
 * For before/after comparisons of the order path (API_ROOT=<another checkout> runs that one's
 * API); `npm run bench` runs it with everything else. `--write-results` puts the median run of
 * each concurrency (by ratio) into bench/results.json — the order scenario and its target rows,
 * the rest kept; the figures part of RESULTS.md is the next full run's to write.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { orderTargets, type BenchResults } from './lib/bench';
import { BENCH_DATABASE_URL, checkInvariants } from './lib/database';
import { argument } from './lib/options';
import { loadProgramme } from './lib/saved-programme';
import { runOrderScenario, type OrderScenario } from './lib/scenarios/orders';
import { startApi } from './lib/server';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Each concurrency's run with the median ratio (HTTP ÷ pgbench) among `results`. */
function medianRuns(results: OrderScenario[], concurrencies: number[]): OrderScenario {
  const runs = concurrencies.map((connections) => {
    const of = results
      .map((r) => r.runs.find((x) => x.connections === connections)!)
      .sort((a, b) => (a.ratio ?? a.http.okPerSecond) - (b.ratio ?? b.http.okPerSecond));
    return of[Math.floor(of.length / 2)]!;
  });
  return {
    ...results[0]!,
    runs,
    ordersCreated: results.reduce((sum, r) => sum + r.ordersCreated, 0),
  };
}

async function main() {
  const log = (message: string) => console.log(message);
  const databaseUrl = BENCH_DATABASE_URL;
  const concurrencies = (argument('concurrencies') ?? '8,32,128').split(',').map(Number);
  const seconds = Number(argument('seconds') ?? 15);
  const runs = Number(argument('runs') ?? 1);
  const { info } = await loadProgramme(databaseUrl);
  const started = new Date();
  const loadBefore = os.loadavg();
  const server = await startApi({
    databaseUrl,
    admin: { username: info.admin, password: info.password },
  });
  log(
    `API started (pid ${server.pid}) at ${server.baseUrl}; load average ${os.loadavg().join(' ')}`,
  );
  const results: OrderScenario[] = [];
  try {
    for (let run = 1; run <= runs; run += 1) {
      log(`run ${run} of ${runs}`);
      results.push(
        await runOrderScenario({
          baseUrl: server.baseUrl,
          databaseUrl,
          info,
          concurrencies,
          seconds,
          warmUpSeconds: Number(argument('warm-up-seconds') ?? 5),
          withCeiling: argument('no-ceiling') === undefined,
          apiPid: server.pid,
          log,
        }),
      );
    }
    // How the orders went to the database (group commit, decision 0034), where the API says.
    const metrics = await fetch(`${server.baseUrl}/metrics`).then((r) => (r.ok ? r.text() : ''));
    const batches = metrics.split('\n').filter((l) => l.startsWith('ledger_order_batch_size'));
    if (batches.length > 0) log(batches.join('\n'));
  } finally {
    await server.stop();
  }
  const invariants = await checkInvariants(databaseUrl);
  log(
    `invariants hold (${Math.round(invariants.seconds * 10) / 10} s); load average ${os.loadavg().join(' ')}`,
  );
  for (const connections of concurrencies) {
    const of = results.map((r) => r.runs.find((x) => x.connections === connections)!);
    const median = (values: number[]) =>
      values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    log(
      `${connections} connections: HTTP ${of.map((r) => r.http.okPerSecond).join(' / ')}/s, ` +
        `pgbench ${of.map((r) => r.ceiling?.tps ?? '-').join(' / ')}/s, ratio ${of.map((r) => r.ratio ?? '-').join(' / ')} ` +
        `(median HTTP ${median(of.map((r) => r.http.okPerSecond))}/s, ratio ${median(of.map((r) => r.ratio ?? 0))}); ` +
        `CPU ms/order API ${of.map((r) => r.cpuMsPerOrder?.api).join(' / ')}, load ${of.map((r) => r.cpuMsPerOrder?.load).join(' / ')}, ` +
        `database ${of.map((r) => r.cpuMsPerOrder?.database).join(' / ')} (pgbench's ${of.map((r) => r.cpuMsPerOrder?.pgbenchDatabase).join(' / ')})`,
    );
  }
  if (argument('write-results') !== undefined) {
    const file = path.join(here, 'results.json');
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchResults;
    const orders = {
      ...medianRuns(results, concurrencies),
      measuredAlone: {
        startedAt: started.toISOString(),
        runs,
        database: databaseUrl.replace(/\/\/[^@]*@/, '//'),
        loadAverage: { before: loadBefore, after: os.loadavg() },
      },
    };
    const others = saved.targets.filter((t) => t.scenario !== '1. terminal orders');
    saved.scenarios.orders = orders;
    saved.targets = [...orderTargets(orders), ...others];
    fs.writeFileSync(file, `${JSON.stringify(saved, null, 2)}\n`);
    log(`wrote the order scenario and its target rows into ${file}`);
  }
  const out = argument('out');
  if (out)
    fs.writeFileSync(
      out,
      JSON.stringify({ loadAverage: os.loadavg(), results, invariants }, null, 2),
    );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
