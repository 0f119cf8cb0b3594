import crypto from 'node:crypto';

/** 32 random bytes, URL-safe: the session id and the CSRF token are both made this way. */
export const newToken = (): string => crypto.randomBytes(32).toString('base64url');

/** Only this digest is stored, so a database leak opens no session (0002). */
export const hashToken = (token: string): string =>
  crypto.createHash('sha256').update(token, 'utf8').digest('hex');

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
export const isTokenShaped = (value: unknown): value is string =>
  typeof value === 'string' && TOKEN_SHAPE.test(value);

/** Compares a presented token with a stored digest in constant time. */
export function tokenMatchesHash(token: string | undefined, storedHash: string): boolean {
  if (!isTokenShaped(token)) return false;
  const presented = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && crypto.timingSafeEqual(presented, stored);
}
