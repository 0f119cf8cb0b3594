// The benchmark (bench/, issue 6) at smoke scale: the same generator and scenarios on a tiny
// programme in a fresh PostgreSQL database, a second or so each. Correctness only, no timings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPENDING_RULE_CODES } from '@app/contract';
import { runBench, type BenchResults, type ScenarioName } from '../../../bench/lib/bench';
import {
  checkInvariants,
  createFreshDatabase,
  databaseBytes,
  dropDatabase,
  smokeDatabaseUrl,
} from '../../../bench/lib/database';
import { runGrowth } from '../../../bench/lib/growth';
import { generateProgramme, TINY_SIZE } from '../../../bench/lib/programme';
import { writeResults } from '../../../bench/lib/report';
import { saveProgramme } from '../../../bench/lib/saved-programme';
import { separateTargets } from '../../../bench/lib/separate-runs';
import { testDatabaseKinds } from '../test/databases';

const hasPostgres = (await testDatabaseKinds()).includes('postgres');

describe.runIf(hasPostgres)('the benchmark at smoke scale', () => {
  const url = smokeDatabaseUrl();
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));
  const log = () => undefined;

  beforeAll(async () => {
    await createFreshDatabase(url);
  }, 60_000);

  afterAll(async () => {
    await dropDatabase(url);
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('generates a programme whose ledger keeps every invariant', async () => {
    const report = await generateProgramme(url, {
      size: TINY_SIZE,
      seed: 7,
      // History up to today's midnight, as `npm run bench:data` does, so nothing is overdue.
      until: new Date(new Date().setUTCHours(0, 0, 0, 0)),
    });
    const invariants = await checkInvariants(url);
    expect(report.info.ledgerRows).toBeGreaterThan(1_000);
    expect(invariants).toMatchObject({
      rows: report.info.ledgerRows,
      companies: TINY_SIZE.companies,
      employees: TINY_SIZE.employees,
      orders: report.info.orders,
    });
    expect(report.rows.monthly_resets).toBeGreaterThan(0);
    await saveProgramme(url, {
      ...report,
      invariants,
      databaseBytes: await databaseBytes(url),
      totalSeconds: report.seconds.total,
    });
  }, 60_000);

  it('runs every scenario, keeps the invariants and writes the results', async () => {
    const importRows = 300;
    const results = await runBench({
      databaseUrl: url,
      orderConcurrencies: [2, 8],
      orderSeconds: 1,
      warmUpSeconds: 1,
      readCalls: 10,
      importRows,
      pairRounds: 1,
      tillConcurrencies: [2],
      // As many as the tiny programme allows (about 256 payees, three devices each): a device has
      // one fresh step left after its opening, and 300 ran out on a quiet machine (166 orders).
      tillDevices: 1_200,
      log,
    });
    const {
      orders,
      orderRules,
      till,
      reads,
      employeeImport,
      monthlyReset,
      web,
      firstStart,
      memory,
    } = results.scenarios;

    expect(orders.runs).toHaveLength(2);
    for (const run of orders.runs) {
      expect(run.http.ok).toBeGreaterThan(0);
      expect(run.http.otherStatuses).toEqual({});
      expect(run.http.errors).toBe(0);
      if (run.ceiling) {
        expect(run.ceiling.transactions).toBeGreaterThan(0);
        expect(run.ceiling.failed).toBe(0);
      }
    }
    expect(orders.ordersCreated).toBeGreaterThanOrEqual(
      orders.runs.reduce((sum, run) => sum + run.http.ok, 0),
    );

    // Scenario 12: a decline is an answer, counted by its code, and only with the rules; any
    // other answer than 201 or a rule's 409 is a failure in either variant.
    expect(orderRules!.runs.map((run) => run.connections)).toEqual([2, 8]);
    for (const run of orderRules!.runs) {
      expect(run.order).toBe('abba');
      for (const variant of [run.a, run.b]) {
        expect(variant.ok).toBeGreaterThan(0);
        expect(variant.otherStatuses).toEqual({});
        expect(variant.errors + variant.timeouts).toBe(0);
      }
      expect(run.a.declined).toEqual({});
      expect(Object.keys(run.b.declined).length).toBeGreaterThan(0);
      for (const code of Object.keys(run.b.declined)) expect(SPENDING_RULE_CODES).toContain(code);
      expect(run.ratio).toBeGreaterThan(0);
    }
    expect(orderRules!.payees.capped).toBeGreaterThan(0);
    expect(orderRules!.walletsSpent).toBe(0);
    // Scenario 13: every pay-code order placed with a fresh code, beside the staff-number ones.
    expect(till!.devices.seeded).toBeGreaterThan(0);
    expect(till!.devicesExhausted).toBe(0);
    // Every device shown to the API once before the runs, and every dry run answered.
    expect(till!.opened).toEqual({
      devices: till!.devices.seeded + till!.devices.registered,
      seconds: expect.any(Number),
      failed: 0,
    });
    expect(till!.runs.map((run) => run.connections)).toEqual([2]);
    for (const run of till!.runs) {
      for (const variant of [run.a, run.b]) {
        expect(variant.ok).toBeGreaterThan(0);
        expect(variant.otherStatuses).toEqual({});
        expect(variant.declined).toEqual({});
        expect(variant.errors + variant.timeouts).toBe(0);
      }
    }
    const rowsOf = (scenario: string) => results.targets.filter((t) => t.scenario === scenario);
    expect(rowsOf('12. orders with spending rules')).toHaveLength(2);
    expect(rowsOf('13. till')).toHaveLength(1);

    expect(reads).toHaveLength(9);
    for (const read of reads) expect(read).toMatchObject({ calls: 10, failed: 0 });
    // The same reads again while orders run at half the highest rate measured (issue 16).
    const underLoad = orders.underLoad!;
    const highest = Math.max(...orders.runs.map((run) => run.http.okPerSecond));
    expect(underLoad.ordersPerSecondAsked).toBe(Math.max(1, Math.round(highest / 2)));
    expect(underLoad.orders.ok).toBeGreaterThan(0);
    expect(underLoad.orders.otherStatuses).toEqual({});
    expect(underLoad.reads.map((read) => read.name)).toEqual(reads.map((read) => read.name));
    for (const read of underLoad.reads) expect(read).toMatchObject({ calls: 5, failed: 0 });
    expect(results.targets.filter((t) => t.scenario === '10. reads under load')).toHaveLength(9);

    expect(employeeImport.summary).toEqual({
      create: importRows,
      override: 0,
      unchanged: 0,
      deactivate: 0,
      keep: 0,
      invalid: 0,
    });
    expect(employeeImport.result).toMatchObject({
      created: importRows,
      updated: 0,
      unchanged: 0,
      deactivated: 0,
      skipped: 0,
      rejected: 0,
    });

    expect(monthlyReset.employees).toBe(TINY_SIZE.bigCompanyEmployees);
    expect(monthlyReset.ledgerRowsWritten).toBeGreaterThan(monthlyReset.activeEmployees);

    expect(web.routes.map((r) => r.route)).toEqual(['login', 'dashboard']);
    for (const route of web.routes) expect(route.gzipBytes).toBeGreaterThan(0);
    expect(memory.peakResidentBytes).toBeGreaterThan(0);
    expect(firstStart.seconds).toBeGreaterThan(0);

    expect(results.invariants.rows).toBeGreaterThan(1_000);
    expect(results.targets.length).toBeGreaterThan(10);

    writeResults(out, results);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'))).toMatchObject({
      invariants: { rows: results.invariants.rows },
    });
    const markdown = fs.readFileSync(path.join(out, 'RESULTS.md'), 'utf8');
    expect(markdown).toContain('### 1. Terminal orders');
    expect(markdown).toContain('### 12. Orders with spending rules');
    expect(markdown).toContain('### 13. The till: pay codes');
    // Every scenario, then the reads again under orders: on a CI machine running the browser
    // lanes beside it, about three minutes; over five when the machine is loaded further (a load
    // of 15 on two cores was seen). A hang detector, not a measure.
  }, 600_000);

  it('runs only the scenarios --scenarios names, keeping the others from the previous results', async () => {
    const previous = JSON.parse(
      fs.readFileSync(path.join(out, 'results.json'), 'utf8'),
    ) as BenchResults;
    const results = await runBench({
      databaseUrl: url,
      orderConcurrencies: [2],
      orderSeconds: 1,
      warmUpSeconds: 1,
      readCalls: 10,
      importRows: 300,
      log,
      only: { scenarios: new Set<ScenarioName>(['reset']), previous },
    });
    expect(results.rerun).toMatchObject({
      scenarios: ['reset'],
      othersFrom: previous.startedAt,
      programme: { info: { seed: 7 } },
    });
    expect(results.programme).toEqual(previous.programme);
    const { orders, orderRules, till, employeeImport, web, memory, monthlyReset } =
      results.scenarios;
    expect({ orders, orderRules, till, employeeImport, web, memory }).toEqual({
      orders: previous.scenarios.orders,
      orderRules: previous.scenarios.orderRules,
      till: previous.scenarios.till,
      employeeImport: previous.scenarios.employeeImport,
      web: previous.scenarios.web,
      memory: previous.scenarios.memory,
    });
    // Run again: the big company's next month, with the CPU it took measured.
    expect(monthlyReset.isApplied).toBe(true);
    expect(monthlyReset.period > previous.scenarios.monthlyReset.period).toBe(true);
    expect(monthlyReset.ledgerRowsWritten).toBeGreaterThan(monthlyReset.activeEmployees);
    expect(monthlyReset.cpuSeconds?.api).toBeGreaterThanOrEqual(0);
    // The skipped scenarios' rows of the targets table are the previous run's, as judged then.
    const rowsOf = (r: BenchResults, scenario: string) =>
      r.targets.filter((t) => t.scenario === scenario);
    expect(rowsOf(results, '1. terminal orders')).toEqual(rowsOf(previous, '1. terminal orders'));
    expect(rowsOf(results, '4. monthly reset')).toHaveLength(1);
    expect(results.invariants.rows).toBeGreaterThan(previous.invariants.rows);
  }, 120_000);
  it('measures the reads on two databases for the growth row (here the same one twice)', async () => {
    const growth = await runGrowth({ one: url, three: url, calls: 5, passesEach: 1, log });
    expect(growth.databases.one).toEqual(growth.databases.three);
    expect(growth.reads).toHaveLength(9);
    for (const read of growth.reads) {
      expect(read.p95Ms.one).toHaveLength(1);
      expect(read.p95Ms.three).toHaveLength(1);
      expect(read.ratio).toBeGreaterThan(0);
    }
    expect(growth.worst.ratio).toBe(Math.max(...growth.reads.map((read) => read.ratio)));
    const growthRow = () => separateTargets(out).find((t) => t.scenario === '11. growth')!;
    expect(growthRow().value).toMatch(/^not measured/);
    fs.writeFileSync(path.join(out, 'growth.json'), JSON.stringify(growth));
    expect(growthRow()).toMatchObject({
      value: expect.stringContaining(`worst ${growth.worst.ratio} (${growth.worst.name};`),
      isMet: growth.worst.ratio <= 1.3,
    });
  }, 120_000);
});
