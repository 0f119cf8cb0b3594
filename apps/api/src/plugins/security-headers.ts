import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

/**
 * The Content-Security-Policy of the SPA and of /api/docs. Both load only their own external
 * scripts, so scripts need no 'unsafe-inline'; styles keep it for Radix/Tailwind inline style
 * attributes and swagger-ui's, images allow data: URIs (icons inlined by the bundles).
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** Sent only on HTTPS requests: over plain HTTP the header would be meaningless or harmful. */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/** Security headers on every answer: API, SPA, static files, docs and 404s. */
export default fp(
  async function securityHeadersPlugin(app: FastifyInstance) {
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      strictTransportSecurity: false,
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
    });
    app.addHook('onRequest', async (request, reply) => {
      // request.protocol honours X-Forwarded-Proto only with TRUST_PROXY.
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
    });
  },
  { name: 'security-headers' },
);
