import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import { AppError } from '../lib/app-error';

/**
 * Per-route limits (`config.rateLimit`), keyed by client address (request.ip, which follows
 * X-Forwarded-For only with TRUST_PROXY). Counters are in memory for now: see
 * docs/decisions/0002 for the PostgreSQL store that several instances need.
 */
export default fp(
  async function rateLimitPlugin(app: FastifyInstance) {
    await app.register(rateLimit, {
      global: false,
      errorResponseBuilder: () => new AppError('TOO_MANY_REQUESTS'),
    });
  },
  { name: 'rate-limit', dependencies: ['errors'] },
);
