import type { Database, Executor } from '../../db/client';
import { groupCommitsByDatabase, type GroupCommitLimits } from '../../lib/group-commit';
import { countRequest, type RateLimitHit } from '../../lib/rate-limits';
import { hashTerminalKey } from './terminal-keys';
import {
  checkTerminalKeyHash,
  checkTerminalKeyHashes,
  type TerminalKeyCheck,
} from './terminals.repository';

export type { TerminalKeyCheck } from './terminals.repository';

const MINUTE = 60_000;
const wrongKeysKey = (ip: string) => `terminal-key-failures:${ip.slice(0, 100)}`;

type KeyCheckInput = Parameters<typeof checkTerminalKeyHash>[1];

/** Each database's (each instance's) group commit of key checks. */
const groupCommits = groupCommitsByDatabase<KeyCheckInput, TerminalKeyCheck>();

/**
 * A terminal's key is its session: the terminal-auth plugin resolves it here, as the auth plugin
 * resolves a cookie in iam/sessions.service. Plugins reach modules only through these two. One
 * statement finds the terminal, reads the address's wrong keys and counts the request against
 * the key (per-minute windows, in the database, decision 0014) — with the checks that arrived
 * while earlier ones were at the database (group commit, decision 0034): under load, one statement
 * and one commit for many requests instead of one each; under a light load, alone at once.
 */
export function checkTerminalKeyGrouped(
  database: Database,
  options: GroupCommitLimits,
  input: { key: { hash: string; wrongKeysKey: string }; now: Date; maxWrongKeys: number },
): Promise<TerminalKeyCheck> {
  const group = groupCommits(database, () => ({
    runBatch: async (inputs) =>
      (await checkTerminalKeyHashes(database.db, inputs)).map((value) => ({
        ok: true as const,
        value,
      })),
    runOne: (one) => checkTerminalKeyHash(database.db, one),
    ...options,
  }));
  return group.submit({
    hash: input.key.hash,
    now: input.now,
    windowMs: MINUTE,
    wrongKeysKey: input.key.wrongKeysKey,
    maxWrongKeys: input.maxWrongKeys,
  });
}

/**
 * What a key check needs of a presented key and its client address, for a check run inside the
 * order's own statement (decision 0043): the key's digest, the address's wrong-key counter and the
 * window of both.
 */
export function terminalKeyOf(
  key: string,
  ip: string,
): {
  hash: string;
  wrongKeysKey: string;
  windowMs: number;
} {
  return { hash: hashTerminalKey(key), wrongKeysKey: wrongKeysKey(ip), windowMs: MINUTE };
}

/** Counts a wrong (unknown or malformed) key presented by a client address. */
export function recordWrongTerminalKey(
  executor: Executor,
  input: { ip: string; now: Date },
): Promise<RateLimitHit> {
  return countRequest(executor, { key: wrongKeysKey(input.ip), now: input.now, windowMs: MINUTE });
}
