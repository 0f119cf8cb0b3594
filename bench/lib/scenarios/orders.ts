/**
 * Scenario 1: terminals placing orders over HTTP (POST /api/v1/orders, Bearer terminal key,
 * Idempotency-Key) at several concurrencies, against a ceiling: the same database statements run
 * by pgbench with a custom script at the same concurrency.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CpuSampler } from '../cpu';
import { countOrders, databaseName, vacuumRollupQueue, withClient } from '../database';
import { loadResultOf, runLoad, type LoadResult } from '../load';
import { runPacedLoad } from '../paced-load';
import { terminalKey, type ProgrammeInfo } from '../programme';
import { percentile, round } from '../stats';
import type { ReadResult } from './reads';

export interface OrderRun {
  connections: number;
  http: LoadResult;
  ceiling: PgbenchResult | null;
  /** HTTP orders per second ÷ the ceiling's, where there is one. */
  ratio: number | null;
  /**
   * CPU milliseconds per order (Linux, /proc): of the API, of the bench process sending the load,
   * of the bench database's backends; and of those backends per pgbench transaction.
   */
  cpuMsPerOrder?: { api: number; load: number; database: number; pgbenchDatabase: number | null };
}

export interface PgbenchResult {
  /** Clients asked for, and used (capped by the server's free connections). */
  clientsRequested: number;
  clients: number;
  seconds: number;
  transactions: number;
  failed: number;
  tps: number;
  latencyMs: { p50: number; p99: number };
}

export interface OrderScenario {
  subtotal: number;
  runs: OrderRun[];
  ordersCreated: number;
  pgbenchMissing?: string;
  /** Issue 16: the reads measured while orders ran at half the highest rate of `runs`. */
  underLoad?: { ordersPerSecondAsked: number; orders: LoadResult; reads: ReadResult[] };
  /** Set by `npm run bench:orders --write-results`: the scenario was run alone, median of `runs`. */
  measuredAlone?: {
    startedAt: string;
    runs: number;
    database: string;
    loadAverage: { before: number[]; after: number[] };
  };
}

/** Each order costs this many tokens, so a run never empties a wallet. */
export const SUBTOTAL = 2;

/** An employee an order names, as the scenarios read it from the programme. */
export interface Payee {
  id: string;
  company_code: string;
  employee_id: string;
}

export const ELIGIBLE_BALANCE = 100;

/**
 * The statements of POST /orders minus the HTTP and application layers: lock the employee's
 * wallet, insert the order, add it to the employee's quarter-hour of spending (decision 0080),
 * insert its order_purchased row (the ledger trigger applies it to the balance, as for the API),
 * store the idempotency key with its answer. The API additionally looks up the terminal by key
 * hash and the company by code, and reads the order back for the answer.
 */
const PGBENCH_SCRIPT = `
\\set r random(:idmin, :idmax)
\\set tid random(1, :nterm)
\\set mid (:tid - 1) / :perm + 1
BEGIN;
SELECT id AS eid, company_id AS cid, available_tokens AS bal, token_month AS tm FROM employees
 WHERE id >= :r AND status = 'active' AND deleted_at IS NULL AND available_tokens >= ${SUBTOTAL}
 ORDER BY id LIMIT 1 FOR NO KEY UPDATE \\gset
INSERT INTO orders (company_id, employee_id, merchant_id, terminal_id, order_type, items, subtotal, ordered_at)
VALUES (:cid, :eid, :mid, :tid, 'drink', '[{"name":"Coffee","quantity":1,"unit_tokens":${SUBTOTAL}}]', ${SUBTOTAL},
        date_trunc('milliseconds', clock_timestamp()))
RETURNING id AS oid, ordered_at AS at \\gset
INSERT INTO spending_quarter_hours AS s (employee_id, bucket, spent)
VALUES (:eid, date_bin('15 minutes', :at::timestamptz, timestamptz '2000-01-01 00:00:00+00'), ${SUBTOTAL})
ON CONFLICT (employee_id, bucket) DO UPDATE SET spent = s.spent + EXCLUDED.spent;
INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction, amount,
                                balance_before, balance_after, period, order_id, terminal_id, merchant_id)
VALUES (:at, 'order_purchased', :cid, :eid, 'sent', ${SUBTOTAL}, :bal, :bal - ${SUBTOTAL}, :tm, :oid, :tid, :mid);
INSERT INTO terminal_idempotency_keys (terminal_id, idempotency_key, request_hash, response_status,
                                       response_body, order_id, created_at)
VALUES (:tid, 'pgbench-' || :oid, md5(:oid::text), 201, '{"data":{}}', :oid, :at);
END;
`;

async function freeConnections(url: string): Promise<number> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ free: number }>(
      `SELECT current_setting('max_connections')::int
              - current_setting('superuser_reserved_connections')::int
              - (SELECT count(*) FROM pg_stat_activity)::int AS free`,
    );
    return rows[0]!.free;
  });
}

function findPgbench(): string | undefined {
  const versions = fs.existsSync('/usr/lib/postgresql')
    ? fs.readdirSync('/usr/lib/postgresql')
    : [];
  const candidates = [
    process.env.PGBENCH_PATH,
    '/usr/bin/pgbench',
    ...versions.map((version) => `/usr/lib/postgresql/${version}/bin/pgbench`),
  ];
  return candidates.find((c) => c && fs.existsSync(c));
}

async function runPgbench(
  pgbench: string,
  url: string,
  clientsRequested: number,
  seconds: number,
  variables: Record<string, number>,
): Promise<PgbenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pgbench-'));
  try {
    // Leave room for the API's pool and everybody else on the server.
    const clients = Math.max(1, Math.min(clientsRequested, (await freeConnections(url)) - 10));
    const script = path.join(dir, 'order.sql');
    fs.writeFileSync(script, PGBENCH_SCRIPT);
    const target = new URL(url);
    const args = [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(clients),
      '-j',
      String(Math.min(2, clients)),
      '-T',
      String(seconds),
      '-f',
      script,
      '-l',
      '--log-prefix',
      path.join(dir, 'log'),
      '-h',
      target.hostname,
      '-p',
      target.port || '5432',
      '-U',
      decodeURIComponent(target.username || 'postgres'),
      ...Object.entries(variables).flatMap(([k, v]) => ['-D', `${k}=${v}`]),
      decodeURIComponent(target.pathname.slice(1)),
    ];
    const output = await new Promise<string>((resolve, reject) => {
      let text = '';
      const child = spawn(pgbench, args, {
        env: { ...process.env, PGPASSWORD: decodeURIComponent(target.password) },
      });
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`pgbench exited ${code}:\n${text}`)),
      );
    });
    const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? NaN);
    const latencies: number[] = [];
    for (const file of fs.readdirSync(dir).filter((f) => f.startsWith('log'))) {
      for (const row of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
        const microseconds = Number(row.split(' ')[2]);
        if (row && Number.isFinite(microseconds)) latencies.push(microseconds / 1000);
      }
    }
    const transactions = number(/number of transactions actually processed: (\d+)/);
    return {
      clientsRequested,
      clients,
      seconds,
      transactions,
      failed: number(/number of failed transactions: (\d+)/) || 0,
      tps: round(number(/tps = ([\d.]+) \(without initial connection time\)/), 1),
      latencyMs: {
        p50: round(percentile(latencies, 50), 1),
        p99: round(percentile(latencies, 99), 1),
      },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface Candidate {
  company_code: string;
  employee_id: string;
}

export async function runOrderScenario(options: {
  baseUrl: string;
  databaseUrl: string;
  info: ProgrammeInfo;
  concurrencies: number[];
  seconds: number;
  warmUpSeconds: number;
  /** The API's process, to measure its CPU per order. */
  apiPid?: number;
  /** Whether to measure the pgbench ceiling too (default: when pgbench is installed). */
  withCeiling?: boolean;
  /**
   * Issue 16's reads while orders run at half the maximum rate: after the runs, orders are sent
   * at half the highest rate measured, from 32 connections, while these reads run.
   */
  readsUnderLoad?: () => Promise<ReadResult[]>;
  log: (message: string) => void;
}): Promise<OrderScenario> {
  const { info, databaseUrl, log } = options;
  const { candidates, range, ordersBefore } = await withClient(databaseUrl, async (c) => {
    const eligible = `e.status = 'active' AND e.deleted_at IS NULL AND e.available_tokens >= ${ELIGIBLE_BALANCE}`;
    // Scenario 1 is the order path without spending rules: not the companies scenario 12 gave
    // rules to in an earlier run on this database, nor the payees it gave an exception.
    const unruled = `NOT EXISTS (SELECT 1 FROM spending_rule_versions v WHERE v.company_id = e.company_id)
      AND NOT EXISTS (SELECT 1 FROM spending_exceptions x WHERE x.employee_id = e.id)`;
    const picked = await c.query<Candidate>(
      `SELECT co.code AS company_code, e.employee_id FROM employees e
         JOIN companies co ON co.id = e.company_id AND co.status = 'active'
        WHERE ${eligible} AND ${unruled} ORDER BY md5(e.id::text) LIMIT 20000`,
    );
    const bounds = await c.query<{ min: string; max: string }>(
      `SELECT min(id) AS min, max(id) AS max FROM employees e WHERE ${eligible}`,
    );
    return {
      candidates: picked.rows,
      range: { min: Number(bounds.rows[0]!.min), max: Number(bounds.rows[0]!.max) },
      ordersBefore: await countOrders(c),
    };
  });
  if (candidates.length === 0) throw new Error('No employee can pay for an order');
  const keys = info.merchants.flatMap((m) =>
    m.terminals.map((t) => `Bearer ${terminalKey(info.seed, m.code, t.code)}`),
  );
  const run = crypto.randomBytes(4).toString('hex');
  let sequence = 0;
  const body = (who: Candidate) =>
    JSON.stringify({
      ...who,
      order_type: 'drink',
      items: [{ name: 'Coffee', quantity: 1, unit_tokens: SUBTOTAL }],
    });
  const orderLoad = (connections: number): Parameters<typeof runLoad>[0] => ({
    url: `${options.baseUrl}/api/v1/orders`,
    method: 'POST' as const,
    connections,
    expectedStatus: 201,
    headers: { 'content-type': 'application/json' },
    setupRequest: (request) => {
      sequence += 1;
      return {
        ...request,
        headers: {
          ...request.headers,
          authorization: keys[sequence % keys.length]!,
          'idempotency-key': `bench-${run}-${sequence}`,
        },
        body: body(candidates[(sequence * 7919) % candidates.length]!),
      };
    },
  });
  const placeOrders = (connections: number, seconds: number) =>
    runLoad({ ...orderLoad(connections), seconds });
  /**
   * Orders arriving at `rate` a second as a Poisson process (an open load, lib/paced-load.ts), on
   * at most 32 connections, until `until` settles; latencies from each arrival. autocannon's
   * `overallRate` sent each second's orders as one burst at its start (decision 0063).
   */
  const pacedOrders = async (rate: number, until: Promise<unknown>): Promise<LoadResult> => {
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const paced = await runPacedLoad({
      url: options.baseUrl,
      ratePerSecond: rate,
      seconds: 3600,
      until,
      maxConnections: 32,
      timeoutMs: 30_000,
      next: () => {
        sequence += 1;
        return {
          method: 'POST',
          path: '/api/v1/orders',
          headers: {
            'content-type': 'application/json',
            authorization: keys[sequence % keys.length]!,
            'idempotency-key': `bench-${run}-${sequence}`,
          },
          body: body(candidates[(sequence * 7919) % candidates.length]!),
          onAnswer: (status, _body, latencyMs) => {
            latencies.push(latencyMs);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          },
        };
      },
    });
    return loadResultOf({
      connections: 32,
      seconds: paced.durationSeconds,
      expectedStatus: 201,
      latencies,
      statuses,
      errors: paced.errors,
      timeouts: paced.timeouts,
    });
  };

  const pgbench = options.withCeiling === false ? undefined : findPgbench();
  const terminalsPerMerchant = info.merchants[0]!.terminals.length;
  await placeOrders(Math.min(8, Math.max(...options.concurrencies)), options.warmUpSeconds);
  const runs: OrderRun[] = [];
  for (const connections of options.concurrencies) {
    const database = databaseName(databaseUrl);
    // Each run, HTTP or pgbench, starts from the same rollup queue: every 32nd ledger statement
    // folds the queue, and the fold's DELETE scans the dead rows the runs before left (the bench's
    // server has autovacuum off). pgbench, one statement per order, folds four to eight times as
    // often as the batched HTTP path, so a queue left to grow slowed the ceiling run by run.
    await vacuumRollupQueue(databaseUrl);
    const httpCpu = new CpuSampler(database, {
      load: process.pid,
      ...(options.apiPid ? { api: options.apiPid } : {}),
    });
    const http = await placeOrders(connections, options.seconds);
    const httpMs = httpCpu.stop();
    log(
      `  orders over HTTP, ${connections} connections: ${http.okPerSecond}/s, p50 ${http.latencyMs.p50} ms, p99 ${http.latencyMs.p99} ms`,
    );
    if (pgbench) await vacuumRollupQueue(databaseUrl);
    const pgbenchCpu = new CpuSampler(database, {});
    const ceiling = pgbench
      ? await runPgbench(pgbench, databaseUrl, connections, options.seconds, {
          idmin: range.min,
          idmax: range.max,
          nterm: keys.length,
          perm: terminalsPerMerchant,
        })
      : null;
    const pgbenchMs = pgbenchCpu.stop();
    const perOrder = (ms: number | undefined) => round((ms ?? 0) / Math.max(1, http.ok), 2);
    if (ceiling) {
      log(
        `  pgbench ceiling, ${ceiling.clients} clients: ${ceiling.tps}/s, p50 ${ceiling.latencyMs.p50} ms, p99 ${ceiling.latencyMs.p99} ms`,
      );
    }
    runs.push({
      connections,
      http,
      ceiling,
      ratio: ceiling && ceiling.tps > 0 ? round(http.okPerSecond / ceiling.tps, 2) : null,
      cpuMsPerOrder: {
        api: perOrder(httpMs.api),
        load: perOrder(httpMs.load),
        database: perOrder(httpMs.database),
        pgbenchDatabase:
          ceiling && ceiling.transactions > 0
            ? round(pgbenchMs.database! / ceiling.transactions, 2)
            : null,
      },
    });
  }
  let underLoad: OrderScenario['underLoad'];
  if (options.readsUnderLoad) {
    const rate = Math.max(1, Math.round(Math.max(...runs.map((r) => r.http.okPerSecond)) / 2));
    log(`  reads while orders run at ${rate}/s (half the highest rate measured)`);
    await vacuumRollupQueue(databaseUrl);
    const reading = options.readsUnderLoad();
    const [background, reads] = await Promise.all([pacedOrders(rate, reading), reading]);
    log(
      `  orders meanwhile: ${background.okPerSecond}/s, p99 ${background.latencyMs.p99} ms, ${background.requests - background.ok} not 201`,
    );
    underLoad = { ordersPerSecondAsked: rate, orders: background, reads };
  }
  const ordersAfter = await withClient(databaseUrl, countOrders);
  return {
    subtotal: SUBTOTAL,
    runs,
    ordersCreated: ordersAfter - ordersBefore,
    ...(underLoad ? { underLoad } : {}),
    ...(pgbench ? {} : { pgbenchMissing: 'pgbench not found: no ceiling measured' }),
  };
}
