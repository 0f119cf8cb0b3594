import type { Database, Executor } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { stateSlot, type AppState } from '../../lib/app-state';
import type { ServiceDeps } from '../../lib/deps';
import {
  GroupCommit,
  terminalGroupCommitLimits,
  type GroupCommitLimits,
} from '../../lib/group-commit';
import type { TerminalIdentity } from '../../lib/principal';
import { countRequest, type RateLimitHit } from '../../lib/rate-limits';
import { hashTerminalKey } from './terminal-keys';
import {
  checkTerminalKeyHash,
  checkTerminalKeyHashes,
  type TerminalKeyCheck,
} from './terminals.repository';

const MINUTE = 60_000;
const wrongKeysKey = (ip: string) => `terminal-key-failures:${ip.slice(0, 100)}`;

type KeyCheckInput = Parameters<typeof checkTerminalKeyHash>[1];

/** The app's (the instance's) group commit of key checks. */
export const KEY_CHECK_BATCHES = stateSlot<GroupCommit<KeyCheckInput, TerminalKeyCheck>>(
  'terminal key check batches',
);

/**
 * A terminal's key is its session: the terminal-auth plugin resolves it here, as the auth plugin
 * resolves a cookie in iam/sessions.service. Plugins reach modules only through these two. One
 * statement finds the terminal, reads the address's wrong keys and counts the request against
 * the key (per-minute windows, in the database, decision 0014) — with the checks that arrived
 * while earlier ones were at the database (group commit, decision 0034): under load, one statement
 * and one commit for many requests instead of one each; under a light load, alone at once.
 */
export function checkTerminalKeyGrouped(
  { database, state }: { database: Database; state: AppState },
  options: GroupCommitLimits,
  input: { key: { hash: string; wrongKeysKey: string }; now: Date; maxWrongKeys: number },
): Promise<TerminalKeyCheck> {
  const group = state.of(
    KEY_CHECK_BATCHES,
    () =>
      new GroupCommit({
        runBatch: async (inputs: KeyCheckInput[]) =>
          (await checkTerminalKeyHashes(database.db, inputs)).map((value) => ({
            ok: true as const,
            value,
          })),
        runOne: (one: KeyCheckInput) => checkTerminalKeyHash(database.db, one),
        ...options,
      }),
  );
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

/** A key presented in `Authorization: Bearer <key>`, as its checks need it. */
export interface PresentedTerminalKey {
  /** SHA-256 of the key. */
  hash: string;
  /** The client address's wrong-key counter. */
  wrongKeysKey: string;
  /** The window of both counters. */
  windowMs: number;
  ip: string;
  now: Date;
}

/**
 * The terminal key's authentication, one per app: every terminal route's (the terminal-auth
 * plugin) and POST /orders' own, whose key its statement may check (orders.service.ts).
 */
export interface TerminalKeyGate {
  /** The limits every check applies, wherever it runs. */
  readonly limits: { maxWrongKeys: number; maxPerKey: number };
  /** The header's key: a missing header is 401, a malformed one a wrong key counted (401 or 429). */
  present(header: string | undefined, ip: string, now: Date): Promise<PresentedTerminalKey>;
  /** Whether the key opened an active terminal here lately: a hint of where to check it. */
  isKnown(key: PresentedTerminalKey): boolean;
  /** The key checked now, in a statement of its own shared with others (group commit), and judged. */
  check(key: PresentedTerminalKey): Promise<TerminalIdentity>;
  /**
   * A key check's verdict, wherever it ran: the terminal, or the 401, 403 or 429 (a key found
   * nowhere is counted against the address).
   */
  judge(key: PresentedTerminalKey, check: TerminalKeyCheck): Promise<TerminalIdentity>;
}

const BEARER = /^Bearer[ \t]+([A-Za-z0-9_-]{10,200})[ \t]*$/i;
/** Digests of keys that opened an active terminal here lately (a hint, never an authority). */
const KNOWN_KEYS_MAX = 10_000;

/**
 * Limits (429 TOO_MANY_REQUESTS with Retry-After; per-minute counters in PostgreSQL shared by every
 * instance, decision 0014): a client address that presents TERMINAL_AUTH_FAILURES_PER_MINUTE wrong
 * keys is refused for the rest of the minute for every further unknown key, so keys cannot be
 * guessed, while a valid key from that address still passes (decision 0070); and each terminal
 * key may make TERMINAL_RATE_LIMIT_PER_MINUTE requests a minute. A known key of an inactive
 * terminal or merchant is refused with its catalogue code.
 */
export function createTerminalKeyGate({
  config,
  database,
  state,
}: Pick<ServiceDeps, 'config' | 'database' | 'state'>): TerminalKeyGate {
  const maxWrongKeys = config.TERMINAL_AUTH_FAILURES_PER_MINUTE;
  const maxPerKey = config.TERMINAL_RATE_LIMIT_PER_MINUTE;
  const group = terminalGroupCommitLimits(config);
  const known = new Set<string>();
  const remember = (hash: string) => {
    if (known.has(hash)) return;
    if (known.size >= KNOWN_KEYS_MAX) known.delete(known.values().next().value!);
    known.add(hash);
  };
  const tooMany = (retryAfterSeconds: number) =>
    new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds });
  const wrongKey = async (ip: string, now: Date) => {
    const wrong = await recordWrongTerminalKey(database.db, { ip, now });
    return wrong.hits > maxWrongKeys
      ? tooMany(wrong.retryAfterSeconds)
      : new AppError('UNAUTHORIZED');
  };

  const gate: TerminalKeyGate = {
    limits: { maxWrongKeys, maxPerKey },
    async present(header, ip, now) {
      if (!header) throw new AppError('UNAUTHORIZED');
      const match = BEARER.exec(header);
      if (!match) throw await wrongKey(ip, now);
      return { ...terminalKeyOf(match[1]!, ip), ip, now };
    },
    isKnown: (key) => known.has(key.hash),
    async check(key) {
      return gate.judge(
        key,
        await checkTerminalKeyGrouped({ database, state }, group, {
          key,
          now: key.now,
          maxWrongKeys,
        }),
      );
    },
    async judge(key, { terminal, keyUse, wrongKeys }) {
      const refuse = (error: AppError) => {
        known.delete(key.hash);
        return error;
      };
      if (!terminal) {
        // An address shut out for wrong keys: its next unknown key is 429 and counts nothing more.
        // A key that opens a terminal passes whatever other keys from its address did (decision
        // 0070): one misconfigured till does not stop every till behind the shop's address.
        if (wrongKeys && wrongKeys.hits >= maxWrongKeys) {
          throw refuse(tooMany(wrongKeys.retryAfterSeconds));
        }
        throw refuse(await wrongKey(key.ip, key.now));
      }
      if (terminal.status !== 'active') throw refuse(new AppError('TERMINAL_INACTIVE'));
      if (terminal.merchantStatus !== 'active') throw refuse(new AppError('MERCHANT_INACTIVE'));
      remember(key.hash);
      if (keyUse && keyUse.hits > maxPerKey) throw tooMany(keyUse.retryAfterSeconds);
      return {
        id: terminal.id,
        merchantId: terminal.merchantId,
        ...(keyUse && {
          rateLimit: {
            limit: maxPerKey,
            remaining: maxPerKey - keyUse.hits,
            resetSeconds: keyUse.retryAfterSeconds,
          },
        }),
      };
    },
  };
  return gate;
}
