import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import type { TerminalIdentity } from '../modules/ledger/ledger.service';
import { hashTerminalKey } from '../modules/terminals/terminal-keys';
import { findTerminalByKeyHash } from '../modules/terminals/terminals.repository';

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
 */
export default fp(
  async function terminalAuthPlugin(app: FastifyInstance) {
    app.decorateRequest('terminal', null);
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config.auth !== 'terminal') return;
      const match = BEARER.exec(request.headers.authorization ?? '');
      if (!match) throw new AppError('UNAUTHORIZED');
      const found = await findTerminalByKeyHash(app.deps.database.db, hashTerminalKey(match[1]!));
      if (!found) throw new AppError('UNAUTHORIZED');
      if (found.status !== 'active') throw new AppError('TERMINAL_INACTIVE');
      if (found.merchantStatus !== 'active') throw new AppError('MERCHANT_INACTIVE');
      request.terminal = { id: found.id, merchantId: found.merchantId };
    });
  },
  { name: 'terminal-auth', dependencies: ['errors'] },
);

/** The authenticated terminal of a terminal route. */
export function currentTerminal(request: FastifyRequest): TerminalIdentity {
  if (!request.terminal) throw new AppError('UNAUTHORIZED');
  return request.terminal;
}
