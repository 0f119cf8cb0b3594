import type { Executor } from '../../db/client';
import { countRequest, type RateLimitHit } from '../../lib/rate-limits';
import { hashTerminalKey } from './terminal-keys';
import { checkTerminalKeyHash, type TerminalKeyCheck } from './terminals.repository';

export type { TerminalKeyCheck } from './terminals.repository';

const MINUTE = 60_000;
const wrongKeysKey = (ip: string) => `terminal-key-failures:${ip.slice(0, 100)}`;

/**
 * A terminal's key is its session: the terminal-auth plugin resolves it here, as the auth plugin
 * resolves a cookie in iam/sessions.service. Plugins reach modules only through these two. One
 * statement finds the terminal, reads the address's wrong keys and counts the request against
 * the key (per-minute windows, in the database, decision 0014).
 */
export function checkTerminalKey(
  executor: Executor,
  input: { key: string; ip: string; now: Date; maxWrongKeys: number },
): Promise<TerminalKeyCheck> {
  return checkTerminalKeyHash(executor, {
    hash: hashTerminalKey(input.key),
    now: input.now,
    windowMs: MINUTE,
    wrongKeysKey: wrongKeysKey(input.ip),
    maxWrongKeys: input.maxWrongKeys,
  });
}

/** Counts a wrong (unknown or malformed) key presented by a client address. */
export function recordWrongTerminalKey(
  executor: Executor,
  input: { ip: string; now: Date },
): Promise<RateLimitHit> {
  return countRequest(executor, { key: wrongKeysKey(input.ip), now: input.now, windowMs: MINUTE });
}
