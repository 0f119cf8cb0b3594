import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { terminalGroupCommitLimits } from '../lib/group-commit';
import type { TerminalIdentity } from '../lib/principal';
import {
  checkTerminalKeyGrouped,
  recordWrongTerminalKey,
  terminalKeyOf,
  type TerminalKeyCheck,
} from '../modules/terminals/terminal-sessions.service';

/** A presented key left for the route's own statement to check (decision 0043). */
export interface PendingTerminalKey {
  /** SHA-256 of the key. */
  hash: string;
  /** The client address's wrong-key counter. */
  wrongKeysKey: string;
  /** The window of both counters. */
  windowMs: number;
  ip: string;
  now: Date;
}

/** What a route that checks its key in its own statement needs of this plugin. */
export interface TerminalKeys {
  /** The key left to the route's statement, or null (checked already, or not such a route). */
  pending(request: FastifyRequest): PendingTerminalKey | null;
  /** The limits the statement applies, as the plugin does. */
  readonly limits: { maxWrongKeys: number; maxPerKey: number };
  /**
   * The statement's key check, judged as the plugin judges its own: sets `request.terminal`, or
   * throws the same 401, 403 or 429 (a key found nowhere is counted against the address).
   */
  accept(request: FastifyRequest, check: TerminalKeyCheck): Promise<TerminalIdentity>;
  /**
   * For a request that failed before reaching its statement (its body refused, say): its key
   * checked now, on its own, so a bad key still answers 401/403/429 first, and is counted, as if
   * it had been checked before the body. Nothing when no key is pending.
   */
  settle(request: FastifyRequest): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The terminal behind a `config: { auth: 'terminal' }` route. */
    terminal: TerminalIdentity | null;
    /** A key this request's route checks in its own statement (decision 0043). */
    terminalKeyPending: PendingTerminalKey | null;
  }
  interface FastifyInstance {
    terminalKeys: TerminalKeys;
  }
  interface FastifyContextConfig {
    /**
     * `'in-statement'`: a key this instance has already seen open a terminal is not checked before
     * the body but by the route's own statement, with its work (`app.terminalKeys`, decision 0043).
     */
    terminalKey?: 'in-statement';
  }
}

const BEARER = /^Bearer[ \t]+([A-Za-z0-9_-]{10,200})[ \t]*$/i;
/** Digests of keys that opened an active terminal here lately (a hint, never an authority). */
const KNOWN_KEYS_MAX = 10_000;

/**
 * Terminal routes (`config: { auth: 'terminal' }`) authenticate with `Authorization: Bearer <key>`
 * and nothing else: no cookies, so no CSRF. An unknown key is 401; a known key of an inactive
 * terminal or merchant is refused with its catalogue code before the body is even read.
 *
 * Limits (429 TOO_MANY_REQUESTS with Retry-After; per-minute counters in PostgreSQL shared by every
 * instance, decision 0014): a client address that presents TERMINAL_AUTH_FAILURES_PER_MINUTE wrong
 * keys is refused for the rest of the minute for every further unknown key, so keys cannot be
 * guessed, while a valid key from that address still passes (decision 0070); and each terminal
 * key may make TERMINAL_RATE_LIMIT_PER_MINUTE requests a minute. The
 * key lookup and both limits are one statement, shared under load with the other requests that
 * arrived meanwhile (group commit, decision 0034).
 *
 * On a route marked `terminalKey: 'in-statement'` (POST /orders), a key that opened an active
 * terminal on this instance before is checked by the route's own statement instead, the same
 * check in the same transaction as the order (decision 0043): one round trip per order instead of
 * two. The set of such keys is only a hint of where to check: the statement finds the terminal
 * again by the key's digest, and a key it no longer finds (rotated, terminal deleted) is a wrong
 * key as before. A key not in the set (every unknown key) is checked here, before the body.
 */
export default fp(
  async function terminalAuthPlugin(app: FastifyInstance) {
    const { config, database, clock } = app.deps;
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

    /** One key check's verdict, wherever it ran. */
    const judge = async (
      request: FastifyRequest,
      key: { hash: string; ip: string; now: Date },
      { terminal, keyUse, wrongKeys }: TerminalKeyCheck,
    ): Promise<TerminalIdentity> => {
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
      const identity = { id: terminal.id, merchantId: terminal.merchantId };
      request.terminal = identity;
      remember(key.hash);
      if (keyUse && keyUse.hits > maxPerKey) throw tooMany(keyUse.retryAfterSeconds);
      return identity;
    };

    const checkHere = async (request: FastifyRequest, key: PendingTerminalKey) =>
      judge(
        request,
        key,
        await checkTerminalKeyGrouped(database, group, { key, now: key.now, maxWrongKeys }),
      );

    const terminalKeys: TerminalKeys = {
      limits: { maxWrongKeys, maxPerKey },
      pending: (request) => request.terminalKeyPending,
      async accept(request, check) {
        const key = request.terminalKeyPending;
        if (!key) throw new Error('no terminal key is pending on this request');
        request.terminalKeyPending = null;
        return judge(request, key, check);
      },
      async settle(request) {
        const key = request.terminalKeyPending;
        if (!key) return;
        request.terminalKeyPending = null;
        await checkHere(request, key);
      },
    };
    app.decorate('terminalKeys', terminalKeys);
    app.decorateRequest('terminal', null);
    app.decorateRequest('terminalKeyPending', null);
    app.addHook('onRequest', async (request) => {
      const routeConfig = request.routeOptions.config;
      if (routeConfig.auth !== 'terminal') return;
      const header = request.headers.authorization;
      if (!header) throw new AppError('UNAUTHORIZED');
      const now = clock.now();
      const match = BEARER.exec(header);
      if (!match) throw await wrongKey(request.ip, now);
      const key = { ...terminalKeyOf(match[1]!, request.ip), ip: request.ip, now };
      if (routeConfig.terminalKey === 'in-statement' && known.has(key.hash)) {
        request.terminalKeyPending = key;
        return;
      }
      await checkHere(request, key);
    });
  },
  { name: 'terminal-auth', dependencies: ['errors'] },
);

/** The authenticated terminal of a terminal route. */
export function currentTerminal(request: FastifyRequest): TerminalIdentity {
  if (!request.terminal) throw new AppError('UNAUTHORIZED');
  return request.terminal;
}
