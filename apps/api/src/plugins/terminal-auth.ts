import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import type { TerminalIdentity } from '../lib/principal';
import { findTerminalByKey } from '../modules/terminals/terminal-sessions.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The terminal behind a `config: { auth: 'terminal' }` route. */
    terminal: TerminalIdentity | null;
  }
}

const BEARER = /^Bearer[ \t]+([A-Za-z0-9_-]{10,200})[ \t]*$/i;

const MINUTE = 60_000;

/**
 * Terminal routes (`config: { auth: 'terminal' }`) authenticate with `Authorization: Bearer <key>`
 * and nothing else: no cookies, so no CSRF. An unknown key is 401; a known key of an inactive
 * terminal or merchant is refused with its catalogue code before the body is even read.
 *
 * Limits (429 TOO_MANY_REQUESTS, counters in memory like the sign-in limit, decision 0002): a client
 * address that presents TERMINAL_AUTH_FAILURES_PER_MINUTE wrong keys is refused for the rest of the
 * minute whatever key it sends next, so keys cannot be guessed; and each terminal key may make
 * TERMINAL_RATE_LIMIT_PER_MINUTE requests a minute.
 */
export default fp(
  async function terminalAuthPlugin(app: FastifyInstance) {
    const { config } = app.deps;
    const wrongKeys = app.createRateLimit({
      max: config.TERMINAL_AUTH_FAILURES_PER_MINUTE,
      timeWindow: MINUTE,
      keyGenerator: (request) => `terminal-key-failures:${request.ip}`,
    });
    const perTerminal = app.createRateLimit({
      max: config.TERMINAL_RATE_LIMIT_PER_MINUTE,
      timeWindow: MINUTE,
      keyGenerator: (request) => `terminal:${request.terminal?.id ?? ''}`,
    });
    const tooMany = (reply: FastifyReply, ttlInSeconds: number) => {
      reply.header('retry-after', Math.max(1, ttlInSeconds));
      return new AppError('TOO_MANY_REQUESTS');
    };

    app.decorateRequest('terminal', null);
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.config.auth !== 'terminal') return;
      const header = request.headers.authorization;
      if (!header) throw new AppError('UNAUTHORIZED');
      const seen = await wrongKeys(request, { increment: false });
      if (!seen.isAllowed && seen.remaining === 0) throw tooMany(reply, seen.ttlInSeconds);
      const match = BEARER.exec(header);
      const found = match ? await findTerminalByKey(app.deps.database.db, match[1]!) : null;
      if (!found) {
        await wrongKeys(request);
        throw new AppError('UNAUTHORIZED');
      }
      if (found.status !== 'active') throw new AppError('TERMINAL_INACTIVE');
      if (found.merchantStatus !== 'active') throw new AppError('MERCHANT_INACTIVE');
      request.terminal = { id: found.id, merchantId: found.merchantId };
      const used = await perTerminal(request);
      if (!used.isAllowed && used.isExceeded) throw tooMany(reply, used.ttlInSeconds);
    });
  },
  { name: 'terminal-auth', dependencies: ['errors', 'rate-limit'] },
);

/** The authenticated terminal of a terminal route. */
export function currentTerminal(request: FastifyRequest): TerminalIdentity {
  if (!request.terminal) throw new AppError('UNAUTHORIZED');
  return request.terminal;
}
