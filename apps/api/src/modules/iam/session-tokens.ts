import crypto from 'node:crypto';

/** 32 random bytes, URL-safe: the session token is made this way. */
export const newToken = (): string => crypto.randomBytes(32).toString('base64url');

/** Only this digest is stored, so a database leak opens no session (0002). */
export const hashToken = (token: string): string =>
  crypto.createHash('sha256').update(token, 'utf8').digest('hex');

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
export const isTokenShaped = (value: unknown): value is string =>
  typeof value === 'string' && TOKEN_SHAPE.test(value);

/**
 * The session's CSRF token (decision 0003): SHA-256 of the session token, domain-separated, so it
 * is the same for the whole session (every tab, every re-send) and only a holder of the HttpOnly
 * session cookie can compute it. The stored id_hash (plain SHA-256) does not give it away.
 */
export const csrfTokenFor = (sessionToken: string): string =>
  crypto
    .createHash('sha256')
    .update('app.csrf.v1\0', 'utf8')
    .update(sessionToken, 'utf8')
    .digest('base64url');

/** Whether a presented CSRF token is the session's (`csrfTokenFor`), in constant time. */
export function csrfTokenMatches(presented: string | undefined, csrfToken: string): boolean {
  if (!isTokenShaped(presented)) return false;
  const expected = Buffer.from(csrfToken, 'utf8');
  const given = Buffer.from(presented, 'utf8');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
