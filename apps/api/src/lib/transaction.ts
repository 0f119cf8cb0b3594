import type { Database, Tx } from '../db/client';
import { AppError } from './app-error';

/** SQLSTATEs that mean "run the whole transaction again": serialization failure and deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);

/** The SQLSTATE of a database error, looking through the wrappers drivers and drizzle add. */
export function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The constraint a unique violation (23505) named, if any. */
export function violatedConstraint(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isRetryable = (error: unknown): boolean => RETRYABLE.has(sqlState(error) ?? '');

export interface TransactionOptions {
  /** How many times the whole transaction may run; 5 unless told. */
  attempts?: number;
  /** Called before each retry (tests count them). */
  onRetry?: (attempt: number, error: unknown) => void;
}

const backoff = (attempt: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));

/**
 * Runs `fn` again from the start when PostgreSQL reports a deadlock or a serialization failure, so
 * those never reach a client as a 500. `fn` must therefore do nothing outside the database that
 * cannot be repeated. When every attempt fails, the client gets 503 SERVICE_UNAVAILABLE, which it
 * may retry.
 */
export async function retrying<T>(
  fn: () => Promise<T>,
  { attempts = 5, onRetry }: TransactionOptions = {},
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn();
    } catch (error) {
      if (!isRetryable(error)) throw error;
      if (attempt >= attempts) throw new AppError('SERVICE_UNAVAILABLE', { cause: error });
      onRetry?.(attempt, error);
      await backoff(attempt);
    }
  }
}

/** Runs `fn` in one database transaction, retried as a whole (see `retrying`). */
export function inTransaction<T>(
  database: Database,
  fn: (tx: Tx) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  return retrying(() => database.db.transaction(fn), options);
}

/** How a service runs its transaction: its own (`transactionOf`), or a caller's (`within`). */
export type TransactionRunner = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

/** A transaction of its own on `database`, retried as a whole (`inTransaction`). */
export const transactionOf =
  (database: Database): TransactionRunner =>
  (fn) =>
    inTransaction(database, fn);

/** Inside the caller's open transaction `tx` (the caller retries it). */
export const within =
  (tx: Tx): TransactionRunner =>
  (fn) =>
    fn(tx);
