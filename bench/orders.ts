/**
 * npm run bench:orders [-- --concurrencies 8,32,128 --seconds 15 --runs 3 --out file.json]
 *
 * Scenario 1 alone (terminal orders over HTTP against the pgbench ceiling) on the programme
 * `npm run bench:data` generated, `--runs` times in a row on one API, then the ledger invariants.
 * For before/after comparisons of the order path; `npm run bench` runs it with everything else.
 */
import fs from 'node:fs';
import os from 'node:os';
import { BENCH_DATABASE_URL, checkInvariants } from './lib/database';
import { argument } from './lib/options';
import { loadProgramme } from './lib/saved-programme';
import { runOrderScenario, type OrderScenario } from './lib/scenarios/orders';
import { startApi } from './lib/server';

async function main() {
  const log = (message: string) => console.log(message);
  const databaseUrl = BENCH_DATABASE_URL;
  const concurrencies = (argument('concurrencies') ?? '8,32,128').split(',').map(Number);
  const seconds = Number(argument('seconds') ?? 15);
  const runs = Number(argument('runs') ?? 1);
  const { info } = await loadProgramme(databaseUrl);
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
    // How the orders went to the database (group commit, decision 0028), where the API says.
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
