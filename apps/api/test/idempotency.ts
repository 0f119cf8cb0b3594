// The Idempotency-Key the tests' requests carry on the back-office's money routes (decision 0068).
import crypto from 'node:crypto';

/** The back-office's money requests, which carry an Idempotency-Key (decision 0068). */
const MONEY_REQUEST =
  /^\/api\/v1\/(tokens\/topup-token(\/employees)?|approvals\/[^/?]+\/(approve|reject))\/?(\?|$)/;

/**
 * A fresh Idempotency-Key for a money request that names none, as the web makes one per dialog:
 * a test that means to repeat a request (or to omit the key) passes its own headers.
 */
export function idempotencyHeaders(
  method: string | undefined,
  url: string,
  headers: Record<string, unknown> | undefined,
): Record<string, string> {
  const named = headers && Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key');
  return (method ?? 'GET').toUpperCase() === 'POST' && MONEY_REQUEST.test(url) && !named
    ? { 'idempotency-key': crypto.randomUUID() }
    : {};
}
