import fs from 'node:fs';
import path from 'node:path';
import type { AbbaComparison } from './abba';
import type { BenchResults } from './bench';
import type { CpuSeconds } from './cpu';
import { mib, round } from './stats';

export const START = '<!-- bench:results:start (written by npm run bench) -->';
export const END = '<!-- bench:results:end -->';

const n = (value: number) => value.toLocaleString('en');
const kb = (bytes: number) => `${round(bytes / 1000, 1)} kB`;

/** ` (CPU: API x s, PostgreSQL y s)` when the scenario measured it. */
function cpuText(cpu: CpuSeconds | undefined): string {
  if (!cpu) return '';
  return ` (CPU: API ${cpu.api} s, PostgreSQL ${cpu.database} s)`;
}

/** The figures as Markdown: machine, database, programme, one table per scenario, the targets. */
export function resultsMarkdown(r: BenchResults): string {
  const p = r.programme;
  const s = r.scenarios;
  const lines: string[] = [];
  const table = (header: string[], rows: (string | number)[][]) => {
    lines.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`);
    for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
    lines.push('');
  };
  lines.push(`Run of ${r.startedAt} (${r.seconds} s).`, '');
  if (r.rerun) {
    const on = r.rerun.programme;
    lines.push(
      `Only ${r.rerun.scenarios.join(', ')} ran then (\`--scenarios\`)` +
        (on
          ? `, on the programme of seed ${on.info.seed} until ${on.info.until}: ${n(on.rows.companies ?? 0)} companies, ` +
            `${n(on.rows.employees ?? 0)} employees, ${n(on.rows.terminals ?? 0)} terminals, ${n(on.info.ledgerRows)} ledger rows, ` +
            `${n(on.info.orders)} orders${r.rerun.database ? ` (${r.rerun.database.server}, ${round(r.rerun.database.bytesBefore / 2 ** 30, 2)} GiB)` : ''}`
          : '') +
        `; the other figures, and the database and programme described below, are from the run of ${r.rerun.othersFrom}.`,
      '',
    );
  }
  lines.push(
    `**Machine**: ${r.machine.cpus} cores (${r.machine.cpuModel}), ${r.machine.memoryGiB} GiB, ${r.machine.os}, Node ${r.machine.node}; ` +
      'the API, PostgreSQL, the load generator and pgbench all share those cores.',
    '',
    `**Database**: ${r.database.server}, local (127.0.0.1), ${Object.entries(r.database.settings)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ', ',
      )}; ${round(r.database.bytesBefore / 2 ** 30, 2)} GiB before the run, ${round(r.database.bytesAfter / 2 ** 30, 2)} GiB after.`,
    '',
    `**Programme** (\`npm run bench:data\`, seed ${p.info.seed}, history until ${p.info.until}): ` +
      `${n(p.rows.companies ?? 0)} companies, ${n(p.rows.employees ?? 0)} employees (${n(p.info.bigCompany.employees)} in ${p.info.bigCompany.code}), ` +
      `${n(p.rows.merchants ?? 0)} merchants, ${n(p.rows.terminals ?? 0)} terminals, ${p.info.size.months} months, ` +
      `${n(p.info.ledgerRows)} ledger rows, ${n(p.info.orders)} orders, ${n(p.rows.monthly_resets ?? 0)} monthly resets. ` +
      `Generated and loaded in ${p.totalSeconds} s (simulate ${p.seconds.simulate} s, COPY ${p.seconds.copy} s, ` +
      `indexes ${p.seconds.indexes} s, vacuum ${p.seconds.vacuum} s, invariants ${round(p.invariants.seconds, 1)} s).`,
    '',
  );

  lines.push('### Targets', '');
  table(
    ['scenario', 'measure', 'target', 'measured', 'met'],
    r.targets.map((t) => [t.scenario, t.measure, t.target, t.value, t.isMet ? 'yes' : '**no**']),
  );

  lines.push(
    '### 1. Terminal orders',
    '',
    `POST /api/v1/orders (Bearer key of one of ${n(p.rows.terminals ?? 0)} terminals, a new Idempotency-Key each, ${s.orders.subtotal} tokens each) ` +
      `for ${r.scenarios.orders.runs[0]?.http.seconds ?? '?'} s per concurrency with autocannon; ceiling: pgbench, custom script, same duration. ` +
      `${n(s.orders.ordersCreated)} orders created in all.`,
    '',
  );
  table(
    [
      'connections',
      'HTTP orders/s',
      'HTTP p50 / p99 ms',
      'non-201',
      'pgbench clients',
      'pgbench tx/s',
      'pgbench p50 / p99 ms',
      'ratio',
    ],
    s.orders.runs.map((run) => [
      run.connections,
      run.http.okPerSecond,
      `${run.http.latencyMs.p50} / ${run.http.latencyMs.p99}`,
      Object.keys(run.http.otherStatuses).length || run.http.errors
        ? `${JSON.stringify(run.http.otherStatuses)}, ${run.http.errors} errors`
        : '0',
      run.ceiling
        ? `${run.ceiling.clients}${run.ceiling.clients !== run.ceiling.clientsRequested ? ` (of ${run.ceiling.clientsRequested})` : ''}`
        : '-',
      run.ceiling?.tps ?? '-',
      run.ceiling ? `${run.ceiling.latencyMs.p50} / ${run.ceiling.latencyMs.p99}` : '-',
      run.ratio ?? '-',
    ]),
  );

  lines.push('### 2. Reads at scale', '', 'One call at a time, after a warm-up; autocannon.', '');
  table(
    ['read', 'as', 'calls', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
    s.reads.map((read) => [
      read.name,
      read.as,
      read.calls,
      read.latencyMs.p50,
      read.latencyMs.p95,
      read.latencyMs.p99,
      read.latencyMs.max,
    ]),
  );

  const imp = s.employeeImport;
  lines.push(
    '### 3. CSV import',
    '',
    imp.totalSeconds === null
      ? `${n(imp.rows)} rows (${kb(imp.fileBytes)}): refused — ${imp.refused}`
      : `${n(imp.rows)} rows (${kb(imp.fileBytes)}) into a new company: preview ${imp.previewSeconds} s, import ${imp.importSeconds} s, ` +
          `together ${imp.totalSeconds} s${cpuText(imp.cpuSeconds)}; preview ${JSON.stringify(imp.summary)}, import ${JSON.stringify(imp.result)}.`,
    '',
  );

  const reset = s.monthlyReset;
  lines.push(
    '### 4. Monthly reset',
    '',
    `Company ${reset.companyId}: ${n(reset.employees)} employees (${n(reset.activeEmployees)} active), opening ${reset.period}: ` +
      (reset.isApplied
        ? `${reset.seconds} s for POST /api/v1/jobs/monthly-reset${cpuText(reset.cpuSeconds)}, ${n(reset.ledgerRowsWritten)} ledger rows written`
        : `**failed** after ${reset.seconds} s (the job reported the company \`failed\`; nothing written)`) +
      `${reset.catchUpRuns ? ` (${reset.catchUpRuns} other due resets applied first, untimed)` : ''}.`,
    '',
  );

  lines.push(
    '### 5. Web',
    '',
    `Production build (${s.web.buildSeconds} s), gzip level 9; brotli is the build's own .br twin, what the server sends a browser that accepts it.`,
    '',
  );
  table(
    ['route', 'route modules', 'JS files', 'bytes', 'gzip', 'brotli (over the wire)'],
    s.web.routes.map((route) => [
      route.route,
      route.modules.map((m) => `\`${m}\``).join(', '),
      route.files,
      n(route.bytes),
      kb(route.gzipBytes),
      kb(route.brotliBytes),
    ]),
  );
  for (const route of s.web.routes) {
    lines.push(
      `Initial JavaScript of ${route.route}, heaviest parts (gzip of each alone): ${route.heaviest
        .map((h) => `${h.name} ${kb(h.gzipBytes)}`)
        .join(', ')}.`,
      '',
    );
  }
  lines.push(
    `Largest route chunk: \`${s.web.largestRouteChunk.module}\` (${n(s.web.largestRouteChunk.bytes)} bytes, ${kb(s.web.largestRouteChunk.gzipBytes)} gzip).`,
    '',
  );

  lines.push(
    '### 6. Memory',
    '',
    `Peak resident memory (VmHWM) of the API process over scenarios 1–4: ${mib(s.memory.peakResidentBytes)} MiB; ` +
      `highest VmRSS sampled per scenario: ${Object.entries(s.memory.bySection)
        .map(([k, v]) => `${k} ${mib(v)} MiB`)
        .join(', ')}.`,
    '',
    '### 7. First start',
    '',
    `\`npm start\` on an empty PGlite data directory with the demo programme (migrations, demo users, three months of history) was ready in ${s.firstStart.seconds} s.`,
    '',
  );
  const abbaTable = (runs: AbbaComparison[], names: { a: string; b: string }) =>
    table(
      [
        'connections',
        `${names.b} orders/s (placed)`,
        `${names.a} orders/s (placed)`,
        'ratio (placed)',
        'declined',
        'runs (orders/s, in order)',
        `CPU ms/order API + db, ${names.b} / ${names.a}`,
        'p50 / p99 ms',
        'unexpected',
      ],
      runs.map((run) => [
        run.connections,
        `${run.b.answeredPerSecond} (${run.b.okPerSecond})`,
        `${run.a.answeredPerSecond} (${run.a.okPerSecond})`,
        `**${run.ratio}** (${run.okRatio})`,
        Object.keys(run.b.declined).length
          ? `${round(run.b.declinedShare * 100, 1)} %: ${Object.entries(run.b.declined)
              .map(([code, count]) => `${code} ${n(count)}`)
              .join(', ')}`
          : '0',
        `${run.order}: ${run.runs.map((r) => r.load.answeredPerSecond ?? r.load.okPerSecond).join(', ')}`,
        `${round(run.b.cpuMsPerOrder.api + run.b.cpuMsPerOrder.database, 2)} / ${round(run.a.cpuMsPerOrder.api + run.a.cpuMsPerOrder.database, 2)}`,
        `${run.b.latencyMs.p50} / ${run.b.latencyMs.p99}; ${run.a.latencyMs.p50} / ${run.a.latencyMs.p99}`,
        JSON.stringify({ ...run.a.otherStatuses, ...run.b.otherStatuses }) === '{}' &&
        run.a.errors + run.b.errors + run.a.timeouts + run.b.timeouts === 0
          ? '0'
          : `${JSON.stringify({ a: run.a.otherStatuses, b: run.b.otherStatuses })}, ${run.a.errors + run.b.errors} errors, ${run.a.timeouts + run.b.timeouts} timeouts`,
      ]),
    );
  const rules = s.orderRules;
  lines.push('### 12. Orders with spending rules', '');
  if (rules) {
    lines.push(
      `The orders of scenario 1 for the payees of ${rules.companies.ruled} companies with a full rule set in force ` +
        `(${JSON.stringify(rules.rules)}) beside those of ${rules.companies.unruled} companies without rules, ` +
        `${n(rules.payees.perHalf)} payees each (${rules.payees.capped} with an exception's daily limit), the same mix ` +
        `(per ${rules.mix.of} orders: ${rules.mix.overLimit} over the order limit, ${rules.mix.excludedMerchant} at a grocery, ` +
        `${rules.mix.capped} by a capped payee). ABBA (A: without, B: with), each run ${rules.runs[0]?.secondsEach ?? '?'} s, pooled; ` +
        `orders/s counts the placed and the declined (a decline is an answer). Load average ${rules.loadAverage.before.map((x) => round(x, 1)).join(' ')} before, ` +
        `${rules.loadAverage.after.map((x) => round(x, 1)).join(' ')} after; ${n(rules.ordersCreated)} orders created.`,
      '',
    );
    abbaTable(rules.runs, { a: 'without', b: 'with rules' });
  } else lines.push('Not measured in this run.', '');
  const till = s.till;
  lines.push('### 13. The till: pay codes', '');
  if (till) {
    lines.push(
      `POST /api/v1/orders naming the payee by a fresh pay code (a device's number and its TOTP, computed by the bench as the wallet does) ` +
        `beside the same payees by company code and staff number: ${n(till.devices.payees)} payees, ${n(till.devices.seeded + till.devices.registered)} devices ` +
        `(${till.devices.registered} registered through POST /me/pay-devices). ABBA (A: staff number, B: pay code), each run ${till.runs[0]?.secondsEach ?? '?'} s, pooled. ` +
        `Before the runs each device was shown once by a dry run (POST /orders/check: ${n(till.opened?.devices ?? 0)} devices in ${till.opened?.seconds ?? '?'} s, ${till.opened?.failed ?? '?'} failed), ` +
        `since the API reads a device and opens its secret once per instance (decision 0082): the runs measure an instance that has seen its employees' phones. ` +
        `${n(till.payCodeOrders.sent)} pay-code orders sent, ${n(till.payCodeOrders.firstUses)} of them a device's first order. ` +
        `Devices without a fresh step: ${till.devicesExhausted} times. Load average ${till.loadAverage.before.map((x) => round(x, 1)).join(' ')} before, ` +
        `${till.loadAverage.after.map((x) => round(x, 1)).join(' ')} after; ${n(till.ordersCreated)} orders created.`,
      '',
    );
    abbaTable(till.runs, { a: 'staff number', b: 'pay code' });
  } else lines.push('Not measured in this run.', '');
  lines.push(
    `Invariants after the run: all hold over ${n(r.invariants.rows)} ledger rows and ${n(r.invariants.orders)} orders (checked in ${round(r.invariants.seconds, 1)} s).`,
  );
  return lines.join('\n');
}

/** Writes results.json and replaces the generated part of RESULTS.md, keeping the rest. */
export function writeResults(dir: string, results: BenchResults): void {
  fs.writeFileSync(path.join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const file = path.join(dir, 'RESULTS.md');
  const generated = `${START}\n${resultsMarkdown(results)}\n${END}`;
  const current = fs.existsSync(file)
    ? fs.readFileSync(file, 'utf8')
    : `# Benchmark results\n\n${START}\n${END}\n`;
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next =
    start >= 0 && end > start
      ? current.slice(0, start) + generated + current.slice(end + END.length)
      : `${current.trimEnd()}\n\n${generated}\n`;
  fs.writeFileSync(file, next);
}
