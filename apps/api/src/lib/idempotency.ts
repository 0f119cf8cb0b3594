// The Idempotency-Key of a money request (DESIGN 4 "money moves once"): the terminal's orders and
// refunds (terminal-orders.sql) and the back-office's issue, distribute, approve and reject
// (decision 0068) check the header alike, hash the request alike and answer a repeat with the
// first answer, the same key with another request 422 IDEMPOTENCY_KEY_REUSED.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX } from '@app/contract';
import { queryRows, type Database, type Tx } from '../db/client';
import { AppError } from './app-error';
import type { ServiceDeps } from './deps';
import { inTransaction } from './transaction';

/** JSON with keys sorted at every level, so equal requests hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What tells a retry (same hash) from another request sent with the same key. */
export const hashRequest = (path: string, body: unknown): string =>
  crypto
    .createHash('sha256')
    .update(canonicalJson({ method: 'POST', path, body }))
    .digest('hex');

/** The key of a request, trimmed; 400 IDEMPOTENCY_KEY_REQUIRED when missing, blank or too long. */
export function checkIdempotencyKey(value: unknown): string {
  if (typeof value !== 'string') throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
  const key = value.trim();
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
  }
  return key;
}

/**
 * The header of every money route, required (the OpenAPI document says so): the terminal's orders
 * and refunds, the till's, and the back-office's issue, distribute, approve and reject. A request
 * without it, or with a blank or too long one, is refused by the validation as 400
 * IDEMPOTENCY_KEY_REQUIRED (plugins/errors.ts); the other headers are kept as they came (the
 * session, the CSRF token, the audit row's user agent). The handler's `checkIdempotencyKey` is
 * the second fence.
 */
export const requiredIdempotencyKeyHeaders = z.looseObject({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX)
    .describe(
      `Required: a key the client makes for this one action (a UUID), 1 to ${IDEMPOTENCY_KEY_MAX} characters, kept until a definite answer. A repeat with the same key and body gets the first answer (money moves once); the same key with another body is 422 IDEMPOTENCY_KEY_REUSED. Keys are per terminal (per user in the back office); a refused request keeps no key, so it may be sent again with the same one.`,
    )
    .meta({ example: '3f1c9f4e-8d2a-4c7e-9b1a-2e5d7c6a9b10' }),
});

/** An answer as it went out: the status and the body the route sends. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

export interface IdempotentRequest {
  /** The session's user: keys are scoped per user, so two users never collide. */
  userId: number;
  key: string;
  /** The request's path (with its ids) and body: what a repeat must match. */
  path: string;
  body: unknown;
  at: Date;
}

/**
 * Runs a back-office money request at most once per (user, key), in one transaction with its key:
 * the key is claimed first (a concurrent request with the same key waits on the claimed row until
 * this one commits, then finds it and reads the stored answer); the work runs in the same
 * transaction and its answer is stored with the key. A refusal (an AppError or any failure) rolls
 * the claim back with the work, so the key may be retried, as a terminal's.
 */
export function idempotent(
  database: Database,
  request: IdempotentRequest,
  work: (tx: Tx) => Promise<StoredAnswer>,
): Promise<StoredAnswer> {
  const hash = hashRequest(request.path, request.body);
  return inTransaction(database, async (tx) => {
    const claimed = await queryRows<{ claimed: number }>(
      tx,
      sql`INSERT INTO back_office_idempotency_keys (user_id, idempotency_key, request_hash, created_at)
          VALUES (${request.userId}, ${request.key}, ${hash}, ${request.at})
          ON CONFLICT DO NOTHING
          RETURNING 1 AS claimed`,
    );
    if (claimed.length === 0) {
      const [stored] = await queryRows<{
        request_hash: string;
        response_status: number | null;
        response_body: unknown;
      }>(
        tx,
        sql`SELECT request_hash, response_status, response_body FROM back_office_idempotency_keys
             WHERE user_id = ${request.userId} AND idempotency_key = ${request.key}`,
      );
      // Committed keys always hold their answer; a row without one is another request's claim.
      if (!stored || stored.request_hash !== hash || stored.response_status === null) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED');
      }
      return { status: stored.response_status, body: stored.response_body };
    }
    const answer = await work(tx);
    await tx.execute(
      sql`UPDATE back_office_idempotency_keys
             SET response_status = ${answer.status}, response_body = ${JSON.stringify(answer.body)}::jsonb
           WHERE user_id = ${request.userId} AND idempotency_key = ${request.key}`,
    );
    return answer;
  });
}

/**
 * A route's money request under its Idempotency-Key (the header `headers` holds, checked as a
 * terminal's): `work` runs in the key's transaction and says what to answer; a repeat gets that.
 */
export function answerOnce(
  deps: Pick<ServiceDeps, 'database' | 'clock'>,
  request: { userId: number; headers: Record<string, unknown>; path: string; body: unknown },
  work: (tx: Tx) => Promise<StoredAnswer>,
): Promise<StoredAnswer> {
  const key = checkIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
  return idempotent(
    deps.database,
    { userId: request.userId, key, path: request.path, body: request.body, at: deps.clock.now() },
    work,
  );
}
