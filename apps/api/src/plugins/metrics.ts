import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { UNMATCHED_ROUTE } from '../lib/metrics';

export const METRICS_PATH = '/metrics';

/** True when `token` is the configured one; compared in constant time (hashes of equal length). */
function bearerMatches(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  const given = crypto
    .createHash('sha256')
    .update(match?.[1]?.trim() ?? '')
    .digest();
  const expected = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(given, expected) && match !== null;
}

/**
 * GET /metrics (DESIGN 4.2): the Prometheus text of the app's registry (app.deps.metrics) and
 * the process's metrics, and every request's duration by method, route pattern and status. Off
 * with METRICS_ENABLED=false (the path then answers 404 like any unknown one); behind
 * `Authorization: Bearer $METRICS_TOKEN` when that is set. It lives outside /api/v1, so the
 * deny-by-default rule and the session lookup do not apply to it.
 */
export default fp(
  async function metricsPlugin(app: FastifyInstance) {
    const { config, metrics } = app.deps;
    if (!config.METRICS_ENABLED) return;

    app.addHook('onResponse', async (request, reply) => {
      // The pattern the router matched (`/api/v1/employees/:id`), never the raw URL; requests
      // no route matched (404s, the SPA fallback) share one label so scanners cannot grow it.
      const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
      metrics.httpRequestDuration.observe(
        { method: request.method, route, status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });

    app.get(
      METRICS_PATH,
      { schema: { hide: true }, config: { public: true } },
      async (request, reply) => {
        const token = config.METRICS_TOKEN;
        if (token && !bearerMatches(request, token)) {
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          throw new AppError('UNAUTHORIZED');
        }
        reply.header('cache-control', 'no-store');
        return reply.type(metrics.contentType).send(await metrics.render());
      },
    );
  },
  { name: 'metrics' },
);
