import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import type { TerminalIdentity } from '../lib/principal';
import {
  createTerminalKeyGate,
  type PresentedTerminalKey,
  type TerminalKeyGate,
} from '../modules/terminals';

declare module 'fastify' {
  interface FastifyRequest {
    /** The terminal behind a `config: { auth: 'terminal' }` route. */
    terminal: TerminalIdentity | null;
    /** A key this request's route checks in its own statement (decision 0043). */
    terminalKeyPending: PresentedTerminalKey | null;
  }
  interface FastifyInstance {
    /** The app's one terminal-key authentication (terminal-sessions.service.ts). */
    terminalKeys: TerminalKeyGate;
  }
  interface FastifyContextConfig {
    /**
     * `'in-statement'`: the route authenticates its terminal itself, and a key this instance has
     * already seen open a terminal is checked by the route's own statement, with its work
     * (POST /orders, modules/orders/orders.service.ts, decision 0043).
     */
    terminalKey?: 'in-statement';
  }
}

/**
 * Terminal routes (`config: { auth: 'terminal' }`) authenticate with `Authorization: Bearer <key>`
 * and nothing else: no cookies, so no CSRF. An unknown key is 401; a known key of an inactive
 * terminal or merchant is refused with its catalogue code before the body is even read; the
 * limits are the gate's (terminal-sessions.service.ts). The key lookup and both limits are one
 * statement, shared under load with the other requests that arrived meanwhile (group commit,
 * decision 0034). A route marked `terminalKey: 'in-statement'` (POST /orders) authenticates its
 * terminal itself, through the same gate, beside the statement that may check its key.
 */
export default fp(
  async function terminalAuthPlugin(app: FastifyInstance) {
    const { clock } = app.deps;
    const gate = createTerminalKeyGate(app.deps);
    app.decorate('terminalKeys', gate);
    app.decorateRequest('terminal', null);
    app.decorateRequest('terminalKeyPending', null);
    app.addHook('onRequest', async (request) => {
      const routeConfig = request.routeOptions.config;
      if (routeConfig.auth !== 'terminal' || routeConfig.terminalKey === 'in-statement') return;
      const key = await gate.present(request.headers.authorization, request.ip, clock.now());
      request.terminal = await gate.check(key);
    });
    // The key's standing against its limit on every answer it got through to (issue 44): a till
    // can slow down before it is refused 429 (whose Retry-After says when to come back).
    app.addHook('onSend', async (request, reply, payload) => {
      const limit = request.terminal?.rateLimit;
      if (limit) {
        reply.header('ratelimit-limit', String(limit.limit));
        reply.header('ratelimit-remaining', String(limit.remaining));
        reply.header('ratelimit-reset', String(limit.resetSeconds));
      }
      return payload;
    });
  },
  { name: 'terminal-auth', dependencies: ['errors'] },
);

/** The authenticated terminal of a terminal route. */
export function currentTerminal(request: FastifyRequest): TerminalIdentity {
  if (!request.terminal) throw new AppError('UNAUTHORIZED');
  return request.terminal;
}
