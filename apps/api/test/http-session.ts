// The one way a client outside the server signs in: the API's process tests, the browser tests'
// setup and the benchmarks all use it (through `@app/api/bench` for the bench), and the in-process
// tests read their `inject` answers with the same `sessionFromCookies`. A session is the cookies a
// browser would send back and the CSRF token it would echo in X-XSRF-TOKEN on every write.

import { signIn, type Session } from '@app/client';
import { idempotencyHeaders } from './idempotency';

export { sessionFromCookies } from '@app/client';

/** The cookies a browser would send back and the CSRF token it would echo (`@app/client`). */
export type HttpSession = Session;

/**
 * Signs in over HTTP at `baseURL` (no path) through the typed client (`@app/client`) and returns
 * the session; throws on any refusal.
 */
export async function signInOverHttp(
  baseURL: string,
  username: string,
  password: string,
): Promise<HttpSession> {
  return (await signIn(baseURL, username, password)).session;
}

/** A signed-in request over HTTP; resolves to status and text, or rejects if the socket dies. */
export async function httpAs(
  baseURL: string,
  session: HttpSession,
  method: string,
  url: string,
  body?: object | FormData,
): Promise<{ status: number; text: string }> {
  const isForm = body instanceof FormData;
  const res = await fetch(`${baseURL}${url}`, {
    method,
    headers: {
      cookie: session.cookie,
      'x-xsrf-token': session.xsrf,
      ...idempotencyHeaders(method, url, undefined),
      ...(body && !isForm ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: isForm ? body : JSON.stringify(body) } : {}),
  });
  return { status: res.status, text: await res.text() };
}
