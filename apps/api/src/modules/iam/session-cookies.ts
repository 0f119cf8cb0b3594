import type { FastifyReply, FastifyRequest } from 'fastify';

/** Plain name over HTTP (local use); `__Host-` over HTTPS, which browsers pin to this host. */
export const SESSION_COOKIE = 'sid';
export const SECURE_SESSION_COOKIE = '__Host-sid';
/** Read by the web app and echoed in X-XSRF-TOKEN (axios' default names). */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

export const isHttps = (request: FastifyRequest): boolean => request.protocol === 'https';

/**
 * The session cookie value the request carries. Over HTTPS only the `__Host-` cookie counts,
 * so a cookie planted by a sibling subdomain or over plain HTTP cannot stand in for it.
 */
export function readSessionCookie(request: FastifyRequest): string | undefined {
  const cookies = request.cookies ?? {};
  if (isHttps(request)) return cookies[SECURE_SESSION_COOKIE];
  return cookies[SESSION_COOKIE] ?? cookies[SECURE_SESSION_COOKIE];
}

export function setSessionCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  tokens: { token: string; csrfToken: string },
): void {
  const secure = isHttps(request);
  // A browser-session cookie: the server enforces idle and absolute expiry (0002).
  reply.setCookie(secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, tokens.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
  });
  setXsrfCookie(request, reply, tokens.csrfToken);
}

export function setXsrfCookie(request: FastifyRequest, reply: FastifyReply, csrfToken: string) {
  reply.setCookie(XSRF_COOKIE, csrfToken, {
    path: '/',
    httpOnly: false,
    sameSite: 'lax',
    secure: isHttps(request),
  });
}

export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply): void {
  const secure = isHttps(request);
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  if (secure) {
    reply.clearCookie(SECURE_SESSION_COOKIE, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: true,
    });
  }
  reply.clearCookie(XSRF_COOKIE, { path: '/', sameSite: 'lax', secure });
}

/** The pending second step of a sign-in (DESIGN 4.1): sent only to the sign-in routes. */
export const MFA_CHALLENGE_COOKIE = 'mfa_challenge';
const MFA_COOKIE_PATH = '/api/v1/iam/login';

export function setMfaChallengeCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(MFA_CHALLENGE_COOKIE, token, {
    path: MFA_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: isHttps(request),
    maxAge: 5 * 60,
  });
}

export function clearMfaChallengeCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(MFA_CHALLENGE_COOKIE, {
    path: MFA_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: isHttps(request),
  });
}
