import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

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

/**
 * The essentials for an answer sent before any hook has run (a URL the router cannot decode):
 * it is a JSON error, so its policy can be the strictest there is.
 */
export function setBareSecurityHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  trustProxy: boolean,
): void {
  reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('cache-control', 'no-store');
  // Such an early request ignores TRUST_PROXY, so the forwarded protocol is read here (last entry).
  const forwarded = String(request.headers['x-forwarded-proto'] ?? '')
    .split(',')
    .pop()!
    .trim();
  if (request.protocol === 'https' || (trustProxy && forwarded === 'https')) {
    reply.header('strict-transport-security', HSTS_VALUE);
  }
}

/** Security headers on every answer: API, SPA, static files, docs and 404s. */
export default fp(
  async function securityHeadersPlugin(app: FastifyInstance) {
    // Helmet's middleware, built once. @fastify/helmet built it again for every request (its
    // `helmet(configuration)` in an onRequest hook), parsing the policy's directives each time:
    // 1 % of the API's CPU in the soak (decision 0063).
    const setHelmetHeaders = helmet({
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      strictTransportSecurity: false,
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
    });
    app.addHook('onRequest', (request, reply, done) => {
      setHelmetHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
    });
    app.addHook('onRequest', async (request, reply) => {
      // request.protocol honours X-Forwarded-Proto only with TRUST_PROXY.
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
      // API answers are personal data: no browser or proxy keeps a copy (ASVS 8.2.1).
      if (request.url.startsWith('/api/v1/')) reply.header('cache-control', 'no-store');
    });
  },
  { name: 'security-headers' },
);
