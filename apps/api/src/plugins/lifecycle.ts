import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

/** What the process tells the app about its own life (server.ts begins the shutdown). */
export interface Lifecycle {
  /** True once shutdown began: /readyz answers 503, new requests 503 SERVICE_UNAVAILABLE. */
  readonly shuttingDown: boolean;
  /** Requests being answered now (health checks included). */
  readonly inFlight: number;
  /** Starts refusing new work; resolves once every request in flight has been answered. */
  beginShutdown(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

/** Paths that keep answering while the instance drains: the balancer must see /readyz go 503. */
const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

/**
 * Graceful shutdown, the app's half (decision 0019). While draining, the server keeps listening so
 * that load balancers read /readyz's 503 and move on, every new request (health checks aside) is
 * refused 503 SERVICE_UNAVAILABLE with `Retry-After` and `Connection: close`, and requests already
 * in flight run to their normal answer. server.ts then closes the app and the database.
 */
export default fp(
  async function lifecyclePlugin(app: FastifyInstance) {
    let shuttingDown = false;
    let inFlight = 0;
    let drained: (() => void) | null = null;

    const settle = () => {
      if (shuttingDown && inFlight === 0 && drained) {
        drained();
        drained = null;
      }
    };

    app.decorate('lifecycle', {
      get shuttingDown() {
        return shuttingDown;
      },
      get inFlight() {
        return inFlight;
      },
      beginShutdown() {
        shuttingDown = true;
        const done = new Promise<void>((resolve) => {
          drained = resolve;
        });
        settle();
        return done;
      },
    } satisfies Lifecycle);

    app.addHook('onRequest', async (request, reply) => {
      if (shuttingDown && !HEALTH_PATHS.has(request.url.split('?')[0]!)) {
        reply.header('connection', 'close');
        throw new AppError('SERVICE_UNAVAILABLE', { retryAfterSeconds: 1 });
      }
      inFlight += 1;
      // 'close' comes once per response, whether it was sent in full or cut by the client.
      reply.raw.once('close', () => {
        inFlight -= 1;
        settle();
      });
    });
  },
  { name: 'lifecycle' },
);
