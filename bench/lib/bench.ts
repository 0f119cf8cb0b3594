/** Runs every scenario of issue 6 on a generated programme and gathers the figures. */
import os from 'node:os';
import type { LedgerSummary } from '@app/api/bench';
import { checkInvariants, databaseBytes, serverSettings, serverVersion } from './database';
import { Session } from './http';
import { loadProgramme, type SavedProgramme } from './saved-programme';
import { runImportScenario, type ImportScenario } from './scenarios/employee-import';
import { runFirstStartScenario, type FirstStartScenario } from './scenarios/first-start';
import { runResetScenario, type ResetScenario } from './scenarios/monthly-reset';
import { runOrderScenario, type OrderScenario } from './scenarios/orders';
import { runReadScenario, type ReadResult } from './scenarios/reads';
import { runWebScenario, type WebScenario } from './scenarios/web-bundle';
import { startApi } from './server';
import { mib, round } from './stats';

export interface BenchOptions {
  databaseUrl: string;
  orderConcurrencies: number[];
  orderSeconds: number;
  warmUpSeconds: number;
  readCalls: number;
  importRows: number;
  log: (message: string) => void;
}

export interface Target {
  scenario: string;
  measure: string;
  target: string;
  value: string;
  isMet: boolean;
}

export interface BenchResults {
  startedAt: string;
  seconds: number;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; os: string; node: string };
  database: {
    server: string;
    settings: Record<string, string>;
    bytesBefore: number;
    bytesAfter: number;
  };
  programme: SavedProgramme;
  scenarios: {
    orders: OrderScenario;
    reads: ReadResult[];
    employeeImport: ImportScenario;
    monthlyReset: ResetScenario;
    web: WebScenario;
    firstStart: FirstStartScenario;
    memory: {
      peakResidentBytes: number;
      bySection: Record<string, number>;
    };
  };
  invariants: LedgerSummary & { seconds: number };
  targets: Target[];
}

const KB = 1000;
const MB = 2 ** 20;

export const TARGETS = {
  /** Issue 16: orders over HTTP reach 0.8 of pgbench on the same statement, at each concurrency. */
  orderRatio: 0.8,
  /** Issue 16: orders over HTTP per second at 32 connections. */
  ordersPerSecondAt32: 1500,
  readP95Ms: 50,
  importSeconds: 15,
  resetSeconds: 20,
  initialJsGzipBytes: 200 * KB,
  /** Issue 19: the sign-in page sends at most 150 kB of JavaScript over the wire. */
  initialJsWireBytes: 150 * KB,
  peakResidentBytes: 512 * MB,
  firstStartSeconds: 60,
};

export async function runBench(options: BenchOptions): Promise<BenchResults> {
  const { databaseUrl, log } = options;
  const startedAt = new Date();
  const programme = await loadProgramme(databaseUrl);
  const { info } = programme;
  const bytesBefore = await databaseBytes(databaseUrl);
  const server = await startApi({
    databaseUrl,
    admin: { username: info.admin, password: info.password },
  });
  log(`API started (pid ${server.pid}) at ${server.baseUrl}`);
  const bySection: Record<string, number> = {};
  let orders: OrderScenario;
  let reads: ReadResult[];
  let employeeImport: ImportScenario;
  let monthlyReset: ResetScenario;
  let peakResidentBytes: number;
  try {
    const admin = await Session.signIn(server.baseUrl, info.admin, info.password);
    const companyAdmin = await Session.signIn(server.baseUrl, info.bigCompany.admin, info.password);

    log('1. terminal orders');
    let end = server.memory.section();
    orders = await runOrderScenario({
      baseUrl: server.baseUrl,
      databaseUrl,
      info,
      concurrencies: options.orderConcurrencies,
      seconds: options.orderSeconds,
      warmUpSeconds: options.warmUpSeconds,
      apiPid: server.pid,
      log,
    });
    bySection.orders = end();

    log('2. reads at scale');
    end = server.memory.section();
    reads = await runReadScenario({
      baseUrl: server.baseUrl,
      databaseUrl,
      info,
      admin,
      companyAdmin,
      calls: options.readCalls,
      log,
    });
    bySection.reads = end();

    log('3. CSV import');
    end = server.memory.section();
    employeeImport = await runImportScenario({
      baseUrl: server.baseUrl,
      admin,
      rows: options.importRows,
      log,
    });
    bySection.employeeImport = end();

    log('4. monthly reset');
    end = server.memory.section();
    monthlyReset = await runResetScenario({ databaseUrl, info, admin, log });
    bySection.monthlyReset = end();
    peakResidentBytes = server.peakResidentBytes();
    log(`6. peak resident memory of the API during 1-4: ${mib(peakResidentBytes)} MiB`);
  } catch (error) {
    log(`API output (tail):\n${server.output()}`);
    throw error;
  } finally {
    await server.stop();
  }

  log('5. web bundle');
  const web = runWebScenario();
  for (const route of web.routes) {
    log(
      `  ${route.route}: ${round(route.gzipBytes / KB, 1)} kB gzip, ${round(route.brotliBytes / KB, 1)} kB brotli in ${route.files} files`,
    );
  }

  log('7. first start');
  const firstStart = await runFirstStartScenario(log);

  log('checking the ledger invariants …');
  const invariants = await checkInvariants(databaseUrl);
  log(
    `  hold over ${invariants.rows.toLocaleString('en')} rows (${round(invariants.seconds, 1)} s)`,
  );

  const results: BenchResults = {
    startedAt: startedAt.toISOString(),
    seconds: round((Date.now() - startedAt.getTime()) / 1000, 1),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGiB: round(os.totalmem() / 2 ** 30, 1),
      os: `${os.type()} ${os.release()}`,
      node: process.version,
    },
    database: {
      server: `PostgreSQL ${await serverVersion(databaseUrl)}`,
      settings: await serverSettings(databaseUrl),
      bytesBefore,
      bytesAfter: await databaseBytes(databaseUrl),
    },
    programme,
    scenarios: {
      orders,
      reads,
      employeeImport,
      monthlyReset,
      web,
      firstStart,
      memory: { peakResidentBytes, bySection },
    },
    invariants,
    targets: [],
  };
  results.targets = evaluate(results);
  return results;
}

/** The order scenario's rows of the targets table (issue 16). */
export function orderTargets(orders: OrderScenario): Target[] {
  const targets: Target[] = [];
  for (const run of orders.runs) {
    targets.push({
      scenario: '1. terminal orders',
      measure: `${run.connections} connections: HTTP ÷ pgbench orders/s`,
      target: `≥ ${TARGETS.orderRatio}`,
      value:
        run.ratio === null
          ? 'no ceiling'
          : `${run.ratio} (${run.http.okPerSecond} ÷ ${run.ceiling!.tps})`,
      isMet: run.ratio !== null && run.ratio >= TARGETS.orderRatio,
    });
  }
  const at32 = orders.runs.find((run) => run.connections === 32);
  if (at32) {
    targets.push({
      scenario: '1. terminal orders',
      measure: '32 connections: HTTP orders/s',
      target: `≥ ${TARGETS.ordersPerSecondAt32.toLocaleString('en')}`,
      value: String(at32.http.okPerSecond),
      isMet: at32.http.okPerSecond >= TARGETS.ordersPerSecondAt32,
    });
  }
  return targets;
}

function evaluate(r: BenchResults): Target[] {
  const targets: Target[] = [];
  const { orders, reads, employeeImport, monthlyReset, web, firstStart, memory } = r.scenarios;
  targets.push(...orderTargets(orders));
  targets.push({
    scenario: '1, 4. invariants',
    measure: 'ledger invariant violations after the scenarios',
    target: '0',
    value: '0',
    isMet: true,
  });
  for (const read of reads) {
    targets.push({
      scenario: '2. reads',
      measure: `${read.name}: p95`,
      target: `≤ ${TARGETS.readP95Ms} ms`,
      value: `${read.latencyMs.p95} ms`,
      isMet: read.failed === 0 && read.latencyMs.p95 <= TARGETS.readP95Ms,
    });
  }
  targets.push({
    scenario: '3. CSV import',
    measure: `preview + import of ${employeeImport.rows.toLocaleString('en')} rows`,
    target: `≤ ${TARGETS.importSeconds} s`,
    value:
      employeeImport.totalSeconds === null
        ? `refused (${employeeImport.refused?.slice(0, 80)})`
        : `${employeeImport.totalSeconds} s`,
    isMet:
      employeeImport.totalSeconds !== null && employeeImport.totalSeconds <= TARGETS.importSeconds,
  });
  targets.push({
    scenario: '4. monthly reset',
    measure: `reset of ${monthlyReset.employees.toLocaleString('en')} employees`,
    target: `≤ ${TARGETS.resetSeconds} s`,
    value: monthlyReset.isApplied
      ? `${monthlyReset.seconds} s`
      : `failed after ${monthlyReset.seconds} s`,
    isMet: monthlyReset.isApplied && monthlyReset.seconds <= TARGETS.resetSeconds,
  });
  for (const route of web.routes) {
    targets.push({
      scenario: '5. web',
      measure: `initial JavaScript of ${route.route} (gzip)`,
      target: `≤ ${TARGETS.initialJsGzipBytes / KB} kB`,
      value: `${round(route.gzipBytes / KB, 1)} kB`,
      isMet: route.gzipBytes <= TARGETS.initialJsGzipBytes,
    });
    targets.push({
      scenario: '5. web',
      measure: `initial JavaScript of ${route.route} over the wire (brotli)`,
      target: `≤ ${TARGETS.initialJsWireBytes / KB} kB`,
      value: `${round(route.brotliBytes / KB, 1)} kB`,
      isMet: route.brotliBytes <= TARGETS.initialJsWireBytes,
    });
  }
  targets.push({
    scenario: '6. memory',
    measure: 'peak resident memory of the API during 1-4',
    target: `≤ ${TARGETS.peakResidentBytes / MB} MiB`,
    value: `${mib(memory.peakResidentBytes)} MiB`,
    isMet: memory.peakResidentBytes <= TARGETS.peakResidentBytes,
  });
  targets.push({
    scenario: '7. first start',
    measure: 'npm start on an empty PGlite data directory with the demo programme, to ready',
    target: `≤ ${TARGETS.firstStartSeconds} s`,
    value: `${firstStart.seconds} s`,
    isMet: firstStart.seconds <= TARGETS.firstStartSeconds,
  });
  return targets;
}
