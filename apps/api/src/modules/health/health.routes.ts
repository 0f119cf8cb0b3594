import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthResponseSchema, readyResponseSchema } from '@app/contract';

/** Liveness and readiness, outside /api/v1 (DESIGN 4). Public by nature. */
export default async function healthRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/healthz',
    { config: { public: true }, schema: { hide: true, response: { 200: healthResponseSchema } } },
    async () => ({ status: 'ok' as const }),
  );
  r.get(
    '/readyz',
    {
      config: { public: true },
      schema: { hide: true, response: { 200: readyResponseSchema, 503: readyResponseSchema } },
    },
    async (_request, reply) => {
      const up = await app.deps.database.ping();
      return reply.code(up ? 200 : 503).send({
        status: up ? ('ready' as const) : ('unavailable' as const),
        database: up ? ('up' as const) : ('down' as const),
      });
    },
  );
}
