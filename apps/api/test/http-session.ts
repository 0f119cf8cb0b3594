// The one way a client outside the server signs in: the API's process tests, the browser tests'
// setup and the benchmarks all use it (through `@app/api/bench` for the bench), and the in-process
// tests read their `inject` answers with the same `sessionFromCookies`. A session is the cookies a
// browser would send back and the CSRF token it would echo in X-XSRF-TOKEN on every write.

export interface HttpSession {
  /** The Cookie header: the session cookie and XSRF-TOKEN. */
  cookie: string;
  /** The CSRF token (the XSRF-TOKEN cookie's value, decoded), for X-XSRF-TOKEN. */
  xsrf: string;
}

/** The session a sign-in's Set-Cookie lines give; throws when they hold no session or CSRF token. */
export function sessionFromCookies(setCookie: readonly string[]): HttpSession {
  const pairs = setCookie.map((line) => line.split(';')[0]!.trim());
  const xsrf = pairs.find((pair) => pair.startsWith('XSRF-TOKEN='));
  if (!xsrf || !pairs.some((pair) => /^(__Host-)?sid=/.test(pair))) {
    throw new Error(
      `sign-in set no session cookies: ${pairs.map((p) => p.split('=')[0]).join(', ')}`,
    );
  }
  return { cookie: pairs.join('; '), xsrf: decodeURIComponent(xsrf.slice('XSRF-TOKEN='.length)) };
}

/** Signs in over HTTP at `baseURL` (no path) and returns the session; throws on any refusal. */
export async function signInOverHttp(
  baseURL: string,
  username: string,
  password: string,
): Promise<HttpSession> {
  const res = await fetch(`${baseURL}/api/v1/iam/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) {
    throw new Error(`sign-in as ${username} answered ${res.status}: ${await res.text()}`);
  }
  return sessionFromCookies(res.headers.getSetCookie());
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
      ...(body && !isForm ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: isForm ? body : JSON.stringify(body) } : {}),
  });
  return { status: res.status, text: await res.text() };
}
