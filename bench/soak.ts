/**
 * npm run bench:soak [-- --minutes 10 --connections 32 --rate 150 [--arrivals poisson|autocannon] [--warm-up 30]]
 *
 * Issue 7's load soak, widened for issue 16: mixed traffic (terminal orders and refunds,
 * distributions, lists, dashboards, reports, CSV exports, sign-ins) for a bounded time against the
 * API on the programme `npm run bench:data` generated. Without `--rate`, at the highest rate the
 * machine sustains (autocannon keeps every connection busy: the latencies are then mostly
 * queueing); with `--rate N`, N requests a second on average arriving as a Poisson process (an open
 * load, lib/paced-load.ts), the load issue 16's "p99 of every read and write" is judged at;
 * `--arrivals autocannon` sends them with autocannon's `overallRate` instead, as stops up to 37
 * did. Autovacuum's rule is applied as the load runs (the bench's server has autovacuum off).
 * Reports requests served, answers by kind and status, latency by kind, the API's memory over
 * time, then checks the six ledger invariants. Writes bench/soak.json and bench/SOAK.md.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  BENCH_DATABASE_URL,
  checkInvariants,
  databaseName,
  serverVersion,
  startAutovacuumRule,
  vacuumRollupQueue,
  withClient,
} from './lib/database';
import { Session } from './lib/http';
import { argument } from './lib/options';
import { terminalKey } from './lib/programme';
import { loadProgramme } from './lib/saved-programme';
import { startCpuMeter, startMachineMeter } from './lib/cpu';
import { latencySummary } from './lib/load';
import { runPacedLoad } from './lib/paced-load';
import { createTimeline, type TimelineWindow } from './lib/timeline';
import { startApi, residentMemory } from './lib/server';
import { mib, percentile, round } from './lib/stats';

const here = path.dirname(fileURLToPath(import.meta.url));

type Kind =
  'sign_in' | 'list' | 'dashboard' | 'report' | 'export' | 'distribution' | 'order' | 'refund';

/** The share of each kind in the mix (out of 100). */
const MIX: [Kind, number][] = [
  ['order', 40],
  ['list', 16],
  ['refund', 10],
  ['distribution', 8],
  ['dashboard', 9],
  ['report', 7],
  ['export', 8],
  // Few: a sign-in is slow on purpose (the password hash), and a day has few of them.
  ['sign_in', 2],
];

interface Payee {
  company_code: string;
  employee_id: string;
}

interface Context {
  kind?: Kind;
  orderKey?: string;
}

/** A request of the mix: its kind, the terminal of an order (for its refund), what to send. */
interface Request extends Context {
  kind: Kind;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

function pickKind(): Kind {
  let roll = Math.random() * 100;
  for (const [kind, share] of MIX) {
    roll -= share;
    if (roll < 0) return kind;
  }
  return 'order';
}

async function main() {
  const minutes = Number(argument('minutes') ?? 10);
  const connections = Number(argument('connections') ?? 32);
  const rate = argument('rate') === undefined ? undefined : Number(argument('rate'));
  // With --rate: Poisson arrivals (lib/paced-load.ts) unless --arrivals autocannon asks for
  // autocannon's overallRate, each connection's share of a second sent at the second's start.
  const arrivals = argument('arrivals') ?? 'poisson';
  if (arrivals !== 'poisson' && arrivals !== 'autocannon') {
    throw new Error(`--arrivals must be poisson or autocannon, not ${arrivals}`);
  }
  // The open load first runs this long uncounted (decision 0064): a freshly started API and a
  // database whose caches the bench's other runs have not warmed spent their first ~15 s at full
  // CPU (JIT, plans, the pages of the lists, reports and exports read from disk), and the queue
  // of that start was the whole p99 of a run.
  const warmUpSeconds = Number(argument('warm-up') ?? 30);
  const databaseUrl = BENCH_DATABASE_URL;
  const { info } = await loadProgramme(databaseUrl);
  const log = (message: string) => console.log(message);
  // The queue earlier runs left behind, cleaned as autovacuum would have (lib/database.ts).
  await vacuumRollupQueue(databaseUrl);

  // Payees with room for many 2-token orders, and the big company's renewed employees (by id)
  // for distributions.
  const { payees, distributable } = await withClient(databaseUrl, async (c) => {
    const payees = await c.query<Payee>(
      `SELECT co.code AS company_code, e.employee_id FROM employees e
         JOIN companies co ON co.id = e.company_id AND co.status = 'active'
        WHERE e.status = 'active' AND e.deleted_at IS NULL AND e.available_tokens >= 100
        ORDER BY md5(e.id::text) LIMIT 20000`,
    );
    const distributable = await c.query<{ id: number }>(
      `SELECT e.id FROM employees e JOIN companies co ON co.id = e.company_id
        WHERE e.company_id = $1 AND e.status = 'active' AND e.deleted_at IS NULL
          AND e.token_month = co.token_month
        ORDER BY md5(e.id::text) LIMIT 5000`,
      [info.bigCompany.id],
    );
    return { payees: payees.rows, distributable: distributable.rows.map((r) => Number(r.id)) };
  });
  if (payees.length === 0 || distributable.length === 0) {
    throw new Error('The bench programme has no payees or no renewed employees to distribute to');
  }
  const terminals = info.merchants.flatMap((m) =>
    m.terminals.map((t) => ({ key: terminalKey(info.seed, m.code, t.code) })),
  );

  const server = await startApi({
    databaseUrl,
    admin: { username: info.admin, password: info.password },
    // The soak signs one company admin in from one address three times a second, several at
    // once under load; the sign-in throttle charges an attempt while it is in flight, so six at
    // once look like six failures (one run got a 429). Its statements still run.
    env: { LOGIN_RATE_LIMIT_PER_MINUTE: '1000000', SIGN_IN_FREE_FAILURES: '1000' },
  });
  log(`API started (pid ${server.pid}) at ${server.baseUrl}; soak of ${minutes} min`);

  const memory: { second: number; rssMiB: number }[] = [];
  const started = performance.now();
  const sampleMemory = () => {
    const m = residentMemory(server.pid);
    if (m)
      memory.push({ second: Math.round((performance.now() - started) / 1000), rssMiB: mib(m.rss) });
  };
  const sampler = setInterval(sampleMemory, 5_000);

  try {
    const admin = await Session.signIn(server.baseUrl, info.admin, info.password);
    const companyAdmin = await Session.signIn(server.baseUrl, info.bigCompany.admin, info.password);
    // Enough for every distribution of the run: the company's wallet must not be the limit.
    await admin.post('/api/v1/tokens/topup-token', {
      company_id: info.bigCompany.id,
      amount: 50_000_000,
      note: 'soak',
    });
    sampleMemory();

    // Orders placed during the run, with the terminal that took them, waiting for a refund.
    const refundable: { id: number; key: string }[] = [];
    const byKind = new Map<Kind, Map<number, number>>();
    const count = (kind: Kind, status: number) => {
      const statuses = byKind.get(kind) ?? new Map<number, number>();
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      byKind.set(kind, statuses);
    };
    const latencies: number[] = [];
    const latenciesByKind = new Map<Kind, number[]>();

    /** The next request of the mix, whichever load sends it. */
    const nextRequest = (): Request => {
      let kind = pickKind();
      if (kind === 'refund' && refundable.length === 0) kind = 'order';
      const json = { 'content-type': 'application/json' };
      switch (kind) {
        case 'sign_in':
          return {
            kind,
            method: 'POST',
            path: '/api/v1/iam/login',
            headers: json,
            body: JSON.stringify({ username: info.bigCompany.admin, password: info.password }),
          };
        case 'list':
        case 'dashboard':
        case 'report':
        case 'export': {
          const employee = pick(distributable);
          // Each read by a role allowed it: the order history, its export and the summary
          // across companies are the platform's (admin, Group HR); the rest the company admin's.
          const reads: Record<typeof kind, [string, Session][]> = {
            list: [
              [
                `/api/v1/employees?page=${1 + Math.floor(Math.random() * 20)}&page_size=20`,
                companyAdmin,
              ],
              [`/api/v1/tokens/transactions?scope=company&limit=50`, companyAdmin],
              [`/api/v1/tokens/transactions?scope=employee&limit=50`, companyAdmin],
              [
                `/api/v1/employees?search=${Math.floor(Math.random() * 1000)}&page=1&page_size=10`,
                companyAdmin,
              ],
              [`/api/v1/orders/admin?page=1&page_size=20`, admin],
            ],
            dashboard: [
              [`/api/v1/dashboard`, companyAdmin],
              [`/api/v1/dashboard/summary`, admin],
            ],
            report: [[`/api/v1/reports/summary?page=1&page_size=20`, companyAdmin]],
            // What a company admin exports in a day's work: one employee's history; and the
            // order history of one employee, which the platform's people export.
            export: [
              [`/api/v1/exports/transactions?scope=employee&employee_id=${employee}`, companyAdmin],
              [`/api/v1/exports/orders?employee_id=${employee}`, admin],
            ],
          };
          const [path, session] = pick(reads[kind]);
          return {
            kind,
            method: 'GET',
            path,
            headers: session.headers(),
            body: undefined,
          };
        }
        case 'distribution': {
          const ids = new Set<number>();
          while (ids.size < 3) ids.add(pick(distributable));
          return {
            kind,
            method: 'POST',
            path: '/api/v1/tokens/topup-token/employees',
            headers: {
              ...companyAdmin.headers(true),
              ...json,
              'idempotency-key': crypto.randomUUID(),
            },
            body: JSON.stringify({ items: [...ids].map((id) => ({ employee_id: id, amount: 1 })) }),
          };
        }
        case 'refund': {
          const order = refundable.splice(Math.floor(Math.random() * refundable.length), 1)[0]!;
          return {
            kind,
            method: 'POST',
            path: `/api/v1/orders/${order.id}/refund`,
            headers: {
              ...json,
              authorization: `Bearer ${order.key}`,
              'idempotency-key': crypto.randomUUID(),
            },
            body: JSON.stringify({ reason: 'cancelled' }),
          };
        }
        default: {
          const payee = pick(payees);
          const terminal = pick(terminals);
          return {
            kind,
            orderKey: terminal.key,
            method: 'POST',
            path: '/api/v1/orders',
            headers: {
              ...json,
              authorization: `Bearer ${terminal.key}`,
              'idempotency-key': crypto.randomUUID(),
            },
            body: JSON.stringify({
              ...payee,
              order_type: 'meal',
              items: [{ name: 'Soup', quantity: 1, unit_tokens: 2 }],
            }),
          };
        }
      }
    };

    /** An order placed (in the run or its warm-up) may be refunded later in the run. */
    const keepRefundable = (request: Context, status: number, body: string) => {
      if (request.kind === 'order' && status === 201 && refundable.length < 50_000) {
        const id = (JSON.parse(body) as { data: { id: number } }).data.id;
        refundable.push({ id, key: request.orderKey! });
      }
    };
    const onAnswer = (request: Context, status: number, body: string) => {
      if (!request.kind) return;
      count(request.kind, status);
      keepRefundable(request, status, body);
    };
    // Latency by 10-second window of the counted run, with what the API and database showed then.
    const timeline = createTimeline({ apiUrl: server.baseUrl, databaseUrl, windowSeconds: 10 });
    const recordLatency = (kind: Kind | undefined, ms: number) => {
      latencies.push(ms);
      timeline.record(ms);
      if (kind) (latenciesByKind.get(kind) ?? latenciesByKind.set(kind, []).get(kind)!).push(ms);
    };
    // The reads (lists, dashboards, reports, exports) also by request, its numbers as N: which
    // of a kind's requests makes its tail.
    const latenciesByRead = new Map<string, number[]>();
    const recordRead = (kind: Kind | undefined, path: string, ms: number) => {
      if (!kind || !['list', 'dashboard', 'report', 'export'].includes(kind)) return;
      const read = `${kind} ${path.replace(/\d+/g, 'N')}`;
      (latenciesByRead.get(read) ?? latenciesByRead.set(read, []).get(read)!).push(ms);
    };

    /** The mix as an open load for `seconds`; `counted`: its answers are the run's figures. */
    const pacedMix = (ratePerSecond: number, seconds: number, counted: boolean) =>
      runPacedLoad({
        url: server.baseUrl,
        ratePerSecond,
        seconds,
        maxConnections: connections,
        timeoutMs: 30_000,
        next: () => {
          const { kind, orderKey, ...request } = nextRequest();
          return {
            ...request,
            onAnswer: (status, body, latencyMs) => {
              if (!counted) return keepRefundable({ kind, orderKey }, status, body);
              onAnswer({ kind, orderKey }, status, body);
              recordLatency(kind, latencyMs);
              recordRead(kind, request.path, latencyMs);
            },
          };
        },
      });

    if (rate && arrivals === 'poisson' && warmUpSeconds > 0) {
      log(`warming up: ${warmUpSeconds} s of the same load, not counted`);
      await pacedMix(rate, warmUpSeconds, false);
    }

    // Where the two cores went: the API, the database's backends, this process (the load), and
    // the machine as a whole (a tail that every kind shares is mostly waiting for a core).
    // The server has autovacuum off; its rule is applied as the load runs (lib/database.ts).
    const stopAutovacuumRule = startAutovacuumRule(databaseUrl);
    const apiAndDatabase = startCpuMeter(databaseName(databaseUrl), server.pid);
    const machine = startMachineMeter();
    const loadStart = process.cpuUsage();
    await timeline.start();
    const result =
      rate && arrivals === 'poisson'
        ? await pacedMix(rate, minutes * 60, true).then((r) => ({
            duration: r.durationSeconds,
            errors: r.errors,
            timeouts: r.timeouts,
          }))
        : await new Promise<autocannon.Result>((resolve, reject) => {
            const instance = autocannon(
              {
                url: server.baseUrl,
                connections,
                ...(rate ? { overallRate: rate } : {}),
                duration: minutes * 60,
                timeout: 30,
                requests: [
                  {
                    setupRequest: (request, context) => {
                      const { kind, orderKey, ...next } = nextRequest();
                      Object.assign(context, { kind, orderKey });
                      return { ...request, ...next };
                    },
                    onResponse: (status, body, context) =>
                      onAnswer(context as Context, status, body),
                  },
                ],
              },
              (error, done) => (error ? reject(error as Error) : resolve(done)),
            );
            instance.on('response', (client, _status, _bytes, responseTime) => {
              // The connection's context is the request's: one request in flight per connection.
              const { kind } = (client as unknown as { requestIterator: { context: Context } })
                .requestIterator.context;
              recordLatency(kind, responseTime);
            });
          });
    const cpuSeconds = apiAndDatabase();
    const windows = timeline.stop();
    const byName = (latenciesOf: Map<string, number[]>) =>
      Object.fromEntries(
        [...latenciesOf].map(([name, values]) => [
          name,
          { served: values.length, ...latencySummary(values) },
        ]),
      );
    const vacuumed = await stopAutovacuumRule();
    const load = process.cpuUsage(loadStart);
    const cpu = {
      apiSeconds: cpuSeconds.api,
      databaseSeconds: cpuSeconds.database,
      loadSeconds: round((load.user + load.system) / 1e6, 1),
      machineBusy: machine(),
    };
    clearInterval(sampler);
    sampleMemory();

    log('checking the ledger invariants…');
    const invariants = await checkInvariants(databaseUrl);
    const answers = Object.fromEntries(
      [...byKind].map(([kind, statuses]) => [kind, Object.fromEntries(statuses)]),
    );
    const served = latencies.length;
    // Errors: transport failures, 5xx, and any 4xx other than the refusals the traffic invites
    // (409 INSUFFICIENT_TOKENS when a payee runs dry, 409/422 on a refund of a refunded order).
    const unexpected = [...byKind].reduce(
      (n, [kind, statuses]) =>
        n +
        [...statuses]
          .filter(
            ([status]) =>
              status >= 500 || (status >= 400 && !(status === 409 && kind !== 'sign_in')),
          )
          .reduce((m, [, c]) => m + c, 0),
      0,
    );
    const rss = memory.map((m) => m.rssMiB);
    const firstMinute = memory.filter((m) => m.second <= 60).map((m) => m.rssMiB);
    const lastMinute = memory.filter((m) => m.second >= minutes * 60 - 60).map((m) => m.rssMiB);
    const summary = {
      ranAt: new Date().toISOString(),
      machine: { cpus: os.cpus().length, memoryGiB: round(os.totalmem() / 2 ** 30, 1) },
      database: `PostgreSQL ${await serverVersion(databaseUrl)} (bench programme, ${info.ledgerRows.toLocaleString('en')} ledger rows at generation)`,
      minutes,
      warmUpSeconds: rate && arrivals === 'poisson' ? warmUpSeconds : 0,
      connections,
      rate: rate ?? null,
      arrivals: rate ? arrivals : null,
      mix: Object.fromEntries(MIX),
      served,
      perSecond: round(served / result.duration, 1),
      transportErrors: result.errors,
      timeouts: result.timeouts,
      unexpectedAnswers: unexpected,
      answers,
      latencyByKindMs: byName(latenciesByKind),
      latencyByReadMs: byName(new Map([...latenciesByRead].sort())),
      latencyMs: {
        p50: round(percentile(latencies, 50), 1),
        p99: round(percentile(latencies, 99), 1),
        max: round(
          latencies.reduce((a, b) => Math.max(a, b), 0),
          1,
        ),
      },
      memoryMiB: {
        start: rss[0],
        firstMinuteMax: Math.max(...firstMinute),
        lastMinuteMax: Math.max(...lastMinute),
        peak: Math.max(...rss),
        end: rss[rss.length - 1],
        vmHwm: mib(server.peakResidentBytes()),
      },
      cpu,
      vacuumed,
      memory,
      timeline: windows,
      invariants,
    };
    fs.writeFileSync(path.join(here, 'soak.json'), `${JSON.stringify(summary, null, 2)}\n`);
    fs.writeFileSync(path.join(here, 'SOAK.md'), soakMarkdown(summary));
    log(JSON.stringify({ ...summary, memory: undefined }, null, 2));
    if (unexpected > 0 || result.errors > 0) {
      // What the API logged (errors and warnings) says why an answer was unexpected.
      log(`API output (tail):\n${server.output()}`);
      process.exitCode = 1;
    }
  } catch (error) {
    log(`API output (tail):\n${server.output()}`);
    throw error;
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
}

function soakMarkdown(s: {
  ranAt: string;
  machine: { cpus: number; memoryGiB: number };
  database: string;
  minutes: number;
  warmUpSeconds: number;
  connections: number;
  rate: number | null;
  arrivals: string | null;
  served: number;
  perSecond: number;
  transportErrors: number;
  timeouts: number;
  unexpectedAnswers: number;
  answers: Record<string, Record<string, number>>;
  latencyMs: { p50: number; p99: number; max: number };
  latencyByKindMs: Record<
    string,
    { served: number; p50: number; p95: number; p99: number; max: number }
  >;
  latencyByReadMs: Record<
    string,
    { served: number; p50: number; p95: number; p99: number; max: number }
  >;
  memoryMiB: Record<string, number | undefined>;
  cpu: { apiSeconds: number; databaseSeconds: number; loadSeconds: number; machineBusy: number };
  vacuumed: Record<string, number>;
  timeline: TimelineWindow[];
  invariants: object;
}): string {
  const rows = Object.entries(s.answers)
    .map(([kind, statuses]) => {
      const list = Object.entries(statuses)
        .map(([status, n]) => `${status}: ${n.toLocaleString('en')}`)
        .join(', ');
      return `| ${kind} | ${list} |`;
    })
    .join('\n');
  const latencyRows = (by: typeof s.latencyByKindMs) =>
    Object.entries(by)
      .map(
        ([what, l]) =>
          `| ${what} | ${l.served.toLocaleString('en')} | ${l.p50} | ${l.p95} | ${l.p99} | ${l.max} |`,
      )
      .join('\n');
  const byKind = latencyRows(s.latencyByKindMs);
  const byRead = latencyRows(s.latencyByReadMs);
  const dash = (value: number | null) => (value === null ? '–' : String(value));
  const timelineRows = s.timeline
    .map(
      (w) =>
        `| ${w.second} | ${w.served.toLocaleString('en')} | ${w.p50} | ${w.p99} | ${w.max} | ${dash(w.loopDelayMaxMs)} | ${dash(w.gcMs)} | ${dash(w.poolWaiting)} | ${dash(w.lockWaits)} | ${dash(w.checkpoints)} |`,
    )
    .join('\n');
  const pace =
    s.rate === null
      ? `from ${s.connections} autocannon connections, each sending its next request as soon as the last is
answered (the highest rate this machine sustains: the latencies are mostly time in the queue)`
      : s.arrivals === 'poisson'
        ? `at ${s.rate} requests a second on average, arriving as a Poisson process whatever the answers
take (an open load, \`lib/paced-load.ts\`), on at most ${s.connections} keep-alive connections; a latency
runs from the request's arrival. The same load ran ${s.warmUpSeconds} s before, not counted (a warm-up)`
        : `at ${s.rate} requests a second in all (autocannon \`overallRate\`, ${s.connections} connections: each
connection sends its share of a second back to back from the second's start, so the second's requests
arrive as one burst)`;
  return `# Load soak (issues 7 and 16)

Generated by \`npm run bench:soak\` on ${s.ranAt}. Machine: ${s.machine.cpus} cores, ${s.machine.memoryGiB} GiB,
API and PostgreSQL and the load generator on the same machine. Database: ${s.database}.

Mixed traffic for ${s.minutes} minutes ${pace}:
terminal orders, refunds of orders placed during the run, distributions of a company admin to three
employees, lists (employees, transactions, order history, employee search), dashboards (the
dashboard and its summary), the summary report, CSV exports (one employee's transactions or
orders), and sign-ins.

| measure | value |
|---|---|
| requests served | ${s.served.toLocaleString('en')} (${s.perSecond} per second) |
| transport errors / timeouts | ${s.transportErrors} / ${s.timeouts} |
| unexpected answers (5xx, or 4xx other than a 409 refusal) | ${s.unexpectedAnswers} |
| latency p50 / p99 / max | ${s.latencyMs.p50} / ${s.latencyMs.p99} / ${s.latencyMs.max} ms |
| API resident memory: start / first-minute max / last-minute max / peak | ${s.memoryMiB.start} / ${s.memoryMiB.firstMinuteMax} / ${s.memoryMiB.lastMinuteMax} / ${s.memoryMiB.peak} MiB |
| CPU seconds: API / database backends / load generator | ${s.cpu.apiSeconds} / ${s.cpu.databaseSeconds} / ${s.cpu.loadSeconds} s (of ${s.minutes * 60 * s.machine.cpus} core-seconds) |
| the machine's cores busy over the run | ${Math.round(s.cpu.machineBusy * 100)} % |
| vacuumed by autovacuum's rule during the run (the server has autovacuum off) | ${
    Object.entries(s.vacuumed)
      .map(([table, n]) => `${table} ×${n}`)
      .join(', ') || 'nothing'
  } |

Latency by kind (ms):

| kind | served | p50 | p95 | p99 | max |
|---|---|---|---|---|---|
${byKind}

The reads by request (numbers as N; the open load only):

| kind and request | served | p50 | p95 | p99 | max |
|---|---|---|---|---|---|
${byRead || '| (not recorded) | | | | | |'}

Over time, by 10-second window of arrival (latency in ms; the API's largest event-loop delay and
its GC time in the window, the queries waiting for a pool connection, the database's backends
waiting for a lock and the checkpoints begun, read at the window's end):

| second | served | p50 | p99 | max | event-loop delay max | GC ms | pool waiting | lock waits | checkpoints |
|---|---|---|---|---|---|---|---|---|---|
${timelineRows || '| (not recorded) | | | | | | | | | |'}

Answers by kind and status (409s are the refusals the traffic invites: a payee whose balance ran
out, \`INSUFFICIENT_TOKENS\`; none may be 5xx):

| kind | statuses |
|---|---|
${rows}

Ledger invariants 1–6 over the whole database after the run: held.

\`\`\`json
${JSON.stringify(s.invariants, null, 2)}
\`\`\`
`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
