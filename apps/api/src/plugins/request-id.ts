// Every answer carries `X-Request-Id` (issue 44 item 5), and every log line of the request carries
// the same id (Fastify's `reqId`): a client that sends its own id finds its request in our logs by
// it; one that sends none gets ours, to quote when it reports a failure.
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** The header a client may send its own request id in, and every answer carries. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** The longest id a client may choose. */
export const REQUEST_ID_MAX_LENGTH = 128;

/**
 * What a client's own id may be made of: letters, digits and `-_.:@/+=` (a UUID, a ULID, a
 * trace id, `till-7/order-42`), 1 to 128 of them. Anything else (spaces, quotes, control
 * characters, a second value) could forge or break a log line, so it is replaced by ours.
 */
export const REQUEST_ID_PATTERN = new RegExp(`^[A-Za-z0-9._:@/+=-]{1,${REQUEST_ID_MAX_LENGTH}}$`);

/** The request's id: the client's own when it is well formed, else a new UUID. */
export function requestIdOf(headerValue: unknown): string {
  return typeof headerValue === 'string' && REQUEST_ID_PATTERN.test(headerValue)
    ? headerValue
    : crypto.randomUUID();
}

/** Fastify's `genReqId`: the id of a raw request, kept as `request.id` and logged as `reqId`. */
export function genReqId(request: IncomingMessage): string {
  return requestIdOf(request.headers[REQUEST_ID_HEADER]);
}

/** Puts the request's id on its answer (also for answers sent before any hook ran). */
export function setRequestIdHeader(request: FastifyRequest, reply: FastifyReply): void {
  reply.header(REQUEST_ID_HEADER, request.id);
}

/** The id header on every answer: API, docs, static files, 404s, refusals of any hook after it. */
export default fp(
  async function requestIdPlugin(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      setRequestIdHeader(request, reply);
      done();
    });
  },
  { name: 'request-id' },
);
