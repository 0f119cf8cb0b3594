import { AppError } from './app-error';

/**
 * Token amounts travel as JavaScript numbers: the schema keeps every balance and amount within
 * 2^53 - 1, so they are exact. Drivers hand back int8 as numbers (pg with our parser, PGlite by
 * default) but sums come back as numeric strings; this turns either into a number, or fails loudly
 * rather than round. Only a sum can pass 2^53 - 1 (every column is checked), so that case is a
 * clean 422 TOTAL_TOO_LARGE for the caller, not a 500.
 */
export function toInt(value: unknown): number {
  const n = typeof value === 'string' || typeof value === 'bigint' ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && !Number.isSafeInteger(n)) {
    throw new AppError('TOTAL_TOO_LARGE');
  }
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
    throw new Error(`Not an exact integer: ${String(value)}`);
  }
  return n;
}

/** The exact sum of token amounts, or 422 TOTAL_TOO_LARGE when it passes 2^53 - 1. */
export function addTokens(...amounts: number[]): number {
  const sum = amounts.reduce((total, amount) => total + amount, 0);
  if (!Number.isSafeInteger(sum)) throw new AppError('TOTAL_TOO_LARGE');
  return sum;
}

export const toIntOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : toInt(value);

/** Timestamps as ISO strings on the wire. */
export const iso = (value: Date | string): string => new Date(value).toISOString();
export const isoOrNull = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : iso(value);
