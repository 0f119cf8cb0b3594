import fs from 'node:fs';
import path from 'node:path';
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
    lines.push(
      `Only ${r.rerun.scenarios.join(', ')} ran then (\`--scenarios\`); the other figures are from the run of ${r.rerun.othersFrom}.`,
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
