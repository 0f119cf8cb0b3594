// What must hold after the faults: every acknowledged order in the ledger exactly once, every
// unacknowledged request retried with its key giving at most one order, the ledger invariants,
// the monthly reset due during the failover applied exactly once, and the API's behaviour during
// the outages (503 with Retry-After, no 500, no hang, /readyz 503 then 200 with no restart).
import { assertLedgerInvariants } from '../../src/modules/ledger';
import { createDatabase, queryRows } from '../../src/db/client';
import { sql } from 'drizzle-orm';
import { REQUEST_TIMEOUT_MS, sendOrder, type Attempt, type ReadinessSample } from './load';
import type { Programme } from './programme';
import { sleep } from './processes';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface Retried {
  attempt: Attempt;
  status: number;
  orderId?: number;
  tries: number;
}

/**
 * Sends every unacknowledged request again with the same key and body, as a terminal would,
 * until it is answered 201 (a replay of the first answer, or the order placed now).
 */
export async function retryUnacknowledged(
  baseUrl: string,
  programme: Programme,
  attempts: Attempt[],
): Promise<Retried[]> {
  const pending = attempts.filter((a) => a.status !== 201);
  const results: Retried[] = [];
  for (const attempt of pending) {
    let last: Awaited<ReturnType<typeof sendOrder>> | null = null;
    let tries = 0;
    for (; tries < 10; tries += 1) {
      last = await sendOrder(baseUrl, programme.terminalKey, attempt.key, attempt.body);
      if (last.status === 201 || (last.status >= 400 && last.status < 500)) break;
      await sleep(Number(last.retryAfter ?? 1) * 1000);
    }
    results.push({
      attempt,
      status: last!.status,
      ...(last!.orderId ? { orderId: last!.orderId } : {}),
      tries: tries + 1,
    });
  }
  return results;
}

export interface DatabaseFacts {
  url: string;
  programme: Programme;
  attempts: Attempt[];
  retried: Retried[];
  /** The reset company's token month before the reset was made due. */
  resetFromPeriod: string;
  /** When the primary's postgres was killed (the reset falls due just after). */
  failoverAt: number;
}

export async function databaseChecks(facts: DatabaseFacts): Promise<Check[]> {
  const { programme, attempts, retried } = facts;
  const checks: Check[] = [];
  const database = await createDatabase({ url: facts.url, poolSize: 2 });
  try {
    const acknowledged = attempts.filter((a) => a.status === 201);
    const ids = acknowledged.map((a) => a.orderId!);
    const ledger = await queryRows<{ order_id: number; rows: number }>(
      database.db,
      sql`SELECT o.id AS order_id, count(t.id)::int AS rows
            FROM orders o
            LEFT JOIN token_transactions t ON t.order_id = o.id AND t.event = 'order_purchased'
           WHERE o.id = ANY(${`{${ids.join(',')}}`}::bigint[])
           GROUP BY o.id`,
    );
    const once = new Map(ledger.map((r) => [Number(r.order_id), r.rows]));
    const notOnce = ids.filter((id) => once.get(id) !== 1);
    checks.push({
      name: 'every acknowledged order is in the ledger exactly once',
      ok: acknowledged.length > 0 && notOnce.length === 0,
      detail:
        `${acknowledged.length} acknowledged` +
        (notOnce.length ? `; not once: ${notOnce.slice(0, 10).join(', ')}` : ''),
    });

    const keys = await queryRows<{ key: string; order_id: number | null }>(
      database.db,
      sql`SELECT idempotency_key AS key, order_id FROM terminal_idempotency_keys
           WHERE terminal_id = ${programme.terminalId}`,
    );
    const orderOfKey = new Map(
      keys.map((k) => [k.key, k.order_id === null ? null : Number(k.order_id)]),
    );
    const ackMismatch = acknowledged.filter((a) => orderOfKey.get(a.key) !== a.orderId);
    const unanswered = retried.filter((r) => r.status !== 201);
    const retryMismatch = retried.filter(
      (r) => r.status === 201 && orderOfKey.get(r.attempt.key) !== r.orderId,
    );
    const [{ orders, distinct }] = (await queryRows<{ orders: number; distinct: number }>(
      database.db,
      sql`SELECT count(*)::int AS orders, count(DISTINCT id)::int AS distinct FROM orders
           WHERE terminal_id = ${programme.terminalId}`,
    )) as [{ orders: number; distinct: number }];
    const keyed = [...orderOfKey.values()].filter((id) => id !== null).length;
    const sentKeys = new Set(attempts.map((a) => a.key)).size;
    checks.push({
      name: 'retrying every unacknowledged request with its key gives at most one order each',
      ok:
        ackMismatch.length === 0 &&
        unanswered.length === 0 &&
        retryMismatch.length === 0 &&
        orders === keyed &&
        orders === distinct &&
        keyed === sentKeys,
      detail:
        `${retried.length} retried (${retried.filter((r) => r.tries > 1).length} needed more than one try), ` +
        `${sentKeys} keys sent, ${keyed} keys with an order, ${orders} orders at the terminal` +
        (ackMismatch.length ? `; ${ackMismatch.length} acknowledged keys point elsewhere` : '') +
        (unanswered.length ? `; ${unanswered.length} never answered 201` : '') +
        (retryMismatch.length ? `; ${retryMismatch.length} retries answered another order` : ''),
    });

    const [balance] = await queryRows<{ held: number; spent: number; employees: number }>(
      database.db,
      sql`SELECT (SELECT coalesce(sum(available_tokens), 0)::bigint FROM employees
                   WHERE company_id = ${programme.companyId}) AS held,
                 (SELECT coalesce(sum(subtotal), 0)::bigint FROM orders
                   WHERE terminal_id = ${programme.terminalId}) AS spent,
                 (SELECT count(*)::int FROM employees WHERE company_id = ${programme.companyId}) AS employees`,
    );
    const expected = balance!.employees * programme.tokensEach - Number(balance!.spent);
    checks.push({
      name: 'the ordering employees hold exactly what they were given minus their orders',
      ok: Number(balance!.held) === expected,
      detail: `held ${balance!.held}, expected ${expected}`,
    });

    try {
      const summary = await assertLedgerInvariants(database.db);
      checks.push({
        name: 'the ledger invariants hold (DESIGN 3.3)',
        ok: true,
        detail: `${summary.rows} ledger rows, ${summary.orders} orders`,
      });
    } catch (error) {
      checks.push({
        name: 'the ledger invariants hold (DESIGN 3.3)',
        ok: false,
        detail: (error as Error).message.slice(0, 500),
      });
    }

    const resets = await queryRows<{ period: string; previous_period: string; applied_at: Date }>(
      database.db,
      sql`SELECT period, previous_period, applied_at FROM monthly_resets
           WHERE company_id = ${programme.resetCompanyId}`,
    );
    // The company's creation credited its first month (monthly_tokens_added too): count the
    // reset's own rows, those of the period it opened.
    const opened = resets[0]?.period ?? '';
    const [events] = await queryRows<{ added: number; expired: number; renewed: number }>(
      database.db,
      sql`SELECT count(*) FILTER (WHERE event = 'monthly_tokens_added' AND period = ${opened})::int AS added,
                 count(*) FILTER (WHERE event = 'employee_expired')::int AS expired,
                 count(*) FILTER (WHERE event = 'monthly_tokens_reset' AND employee_id IS NOT NULL
                                    AND period = ${opened})::int AS renewed
            FROM token_transactions WHERE company_id = ${programme.resetCompanyId}`,
    );
    checks.push({
      name: 'the monthly reset due during the failover ran exactly once',
      ok:
        resets.length === 1 &&
        resets[0]!.previous_period === facts.resetFromPeriod &&
        events!.added === 1 &&
        events!.expired === programme.resetEmployees &&
        events!.renewed === programme.resetEmployees,
      detail:
        `${resets.length} reset(s) recorded` +
        (resets[0]
          ? ` (${resets[0].previous_period} → ${resets[0].period}, applied ` +
            `${((new Date(resets[0].applied_at).getTime() - facts.failoverAt) / 1000).toFixed(1)} s ` +
            'after the primary was killed)'
          : '') +
        `; ledger: ${events!.added} allocation, ${events!.expired} expiries, ${events!.renewed} renewals`,
    });
  } finally {
    await database.close();
  }
  return checks;
}

/** The API's behaviour during the faults, from the answers the load received. */
export function behaviourChecks(options: {
  attempts: Attempt[];
  retried: Retried[];
  ready: ReadinessSample[];
  /** Phases in which the database was away or moving. */
  databasePhases: { name: string; at: number; endedAt: number }[];
  /** Phases in which /readyz must have gone 503 (the failover: the primary is gone for seconds). */
  readinessPhases: { name: string; at: number; endedAt: number }[];
  /** Instances that must have kept running throughout (no restart), with their first pid. */
  survivors: { name: string; pidBefore: number; pidAfter: number; running: boolean }[];
}): Check[] {
  const { attempts, ready, databasePhases, readinessPhases } = options;
  const all = [...attempts, ...options.retried.map((r) => ({ ...r.attempt, status: r.status }))];
  const checks: Check[] = [];
  const serverErrors = all.filter((a) => a.status === 500);
  checks.push({
    name: 'no request was answered 500',
    ok: serverErrors.length === 0,
    detail: `${serverErrors.length} answered 500`,
  });
  const hangs = attempts.filter((a) => a.error?.startsWith('TimeoutError'));
  const slowest = Math.max(0, ...attempts.map((a) => a.doneAt - a.sentAt));
  checks.push({
    name: `no request hung (every one answered within ${REQUEST_TIMEOUT_MS / 1000} s × the load's scale)`,
    ok: hangs.length === 0,
    detail: `${hangs.length} timed out; slowest answer ${(slowest / 1000).toFixed(2)} s`,
  });
  const dbPhaseNames = new Set(databasePhases.map((p) => p.name));
  const outage = attempts.filter((a) => dbPhaseNames.has(a.phase) && a.status !== 201);
  const badOutage = outage.filter(
    (a) => !(a.status === 503 && a.code === 'DATABASE_UNAVAILABLE' && Number(a.retryAfter) >= 1),
  );
  checks.push({
    name: 'during the database outages every failed order was 503 DATABASE_UNAVAILABLE with Retry-After',
    ok: badOutage.length === 0,
    detail:
      `${outage.length} failed, ${outage.length - badOutage.length} of them 503 with Retry-After` +
      (badOutage.length
        ? `; others: ${badOutage
            .slice(0, 5)
            .map((a) => `${a.status}${a.code ? ` ${a.code}` : ''}${a.error ? ` ${a.error}` : ''}`)
            .join(', ')}`
        : ''),
  });
  for (const phase of readinessPhases) {
    const samples = ready.filter((s) => s.at >= phase.at && s.at <= phase.endedAt);
    const down = samples.filter((s) => s.status === 503);
    const lastByInstance = new Map<string, number>();
    for (const s of samples) lastByInstance.set(s.instance, s.status);
    const back = [...lastByInstance.values()].every((status) => status === 200);
    checks.push({
      name: `${phase.name}: /readyz went 503 and came back to 200 by itself`,
      ok: down.length > 0 && back,
      detail: `${down.length} of ${samples.length} readiness answers were 503; at the end ${[
        ...lastByInstance.entries(),
      ]
        .map(([name, status]) => `${name} ${status}`)
        .join(', ')}`,
    });
  }
  const restarted = options.survivors.filter((s) => !s.running || s.pidBefore !== s.pidAfter);
  checks.push({
    name: 'the API instances recovered with no restart',
    ok: restarted.length === 0,
    detail: options.survivors
      .map((s) => `${s.name} pid ${s.pidBefore}${s.running ? ' still running' : ' gone'}`)
      .join(', '),
  });
  return checks;
}
