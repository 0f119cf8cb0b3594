import crypto from 'node:crypto';

const KEY_PREFIX = 'tk_';
const PREFIX_SHOWN = 10;

/**
 * A terminal API key: 32 random bytes, so a plain SHA-256 of it is a safe thing to store (nothing
 * to brute-force, unlike a password) and lets the key be found by an indexed equality lookup.
 */
export function generateTerminalKey(): { key: string; hash: string; prefix: string } {
  return terminalKeyFrom(KEY_PREFIX + crypto.randomBytes(32).toString('base64url'));
}

/** What is stored of a given key. */
export function terminalKeyFrom(key: string): { key: string; hash: string; prefix: string } {
  return { key, hash: hashTerminalKey(key), prefix: key.slice(0, PREFIX_SHOWN) };
}

export const hashTerminalKey = (key: string): string =>
  crypto.createHash('sha256').update(key, 'utf8').digest('hex');
