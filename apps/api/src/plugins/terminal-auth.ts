import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import type { TerminalIdentity } from '../lib/principal';
import {
  checkTerminalKeyGrouped,
  recordWrongTerminalKey,
} from '../modules/terminals/terminal-sessions.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The terminal behind a `config: { auth: 'terminal' }` route. */
    terminal: TerminalIdentity | null;
  }
}

const BEARER = /^Bearer[ \t]+([A-Za-z0-9_-]{10,200})[ \t]*$/i;

/**
 * Terminal routes (`config: { auth: 'terminal' }`) authenticate with `Authorization: Bearer <key>`
 * and nothing else: no cookies, so no CSRF. An unknown key is 401; a known key of an inactive
 * terminal or merchant is refused with its catalogue code before the body is even read.
 *
 * Limits (429 TOO_MANY_REQUESTS with Retry-After; per-minute counters in PostgreSQL shared by every
 * instance, decision 0014): a client address that presents TERMINAL_AUTH_FAILURES_PER_MINUTE wrong
 * keys is refused for the rest of the minute whatever key it sends next, so keys cannot be
 * guessed; and each terminal key may make TERMINAL_RATE_LIMIT_PER_MINUTE requests a minute. The
 * key lookup and both limits are one statement, shared under load with the other requests that
 * arrived meanwhile (group commit, decision 0034).
 */
export default fp(
  async function terminalAuthPlugin(app: FastifyInstance) {
    const { config, database, clock } = app.deps;
    const maxWrongKeys = config.TERMINAL_AUTH_FAILURES_PER_MINUTE;
    const group = {
      maxBatch: config.TERMINAL_GROUP_COMMIT_MAX,
      maxInFlight: config.TERMINAL_GROUP_COMMIT_IN_FLIGHT,
    };
    const tooMany = (retryAfterSeconds: number) =>
      new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds });
    const wrongKey = async (ip: string, now: Date) => {
      const wrong = await recordWrongTerminalKey(database.db, { ip, now });
      return wrong.hits > maxWrongKeys
        ? tooMany(wrong.retryAfterSeconds)
        : new AppError('UNAUTHORIZED');
    };

    app.decorateRequest('terminal', null);
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config.auth !== 'terminal') return;
      const header = request.headers.authorization;
      if (!header) throw new AppError('UNAUTHORIZED');
      const now = clock.now();
      const match = BEARER.exec(header);
      if (!match) throw await wrongKey(request.ip, now);
      const { terminal, keyUse, wrongKeys } = await checkTerminalKeyGrouped(database, group, {
        key: match[1]!,
        ip: request.ip,
        now,
        maxWrongKeys,
      });
      if (wrongKeys && wrongKeys.hits >= maxWrongKeys) throw tooMany(wrongKeys.retryAfterSeconds);
      if (!terminal) throw await wrongKey(request.ip, now);
      if (terminal.status !== 'active') throw new AppError('TERMINAL_INACTIVE');
      if (terminal.merchantStatus !== 'active') throw new AppError('MERCHANT_INACTIVE');
      request.terminal = { id: terminal.id, merchantId: terminal.merchantId };
      if (keyUse && keyUse.hits > config.TERMINAL_RATE_LIMIT_PER_MINUTE) {
        throw tooMany(keyUse.retryAfterSeconds);
      }
    });
  },
  { name: 'terminal-auth', dependencies: ['errors'] },
);

/** The authenticated terminal of a terminal route. */
export function currentTerminal(request: FastifyRequest): TerminalIdentity {
  if (!request.terminal) throw new AppError('UNAUTHORIZED');
  return request.terminal;
}
