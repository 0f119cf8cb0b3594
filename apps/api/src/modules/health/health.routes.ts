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
      // Shutting down (SIGTERM): not ready, whatever the database says, so balancers move on.
      const shuttingDown = app.lifecycle.shuttingDown;
      const ready = up && !shuttingDown;
      return reply.code(ready ? 200 : 503).send({
        status: ready ? ('ready' as const) : ('unavailable' as const),
        database: up ? ('up' as const) : ('down' as const),
        ...(shuttingDown ? { shutting_down: true } : {}),
      });
    },
  );
}
