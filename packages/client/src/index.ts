// The typed client of the back-office API (issue 20): `openapi-fetch` over the types that
// `openapi-typescript` makes from docs/openapi.json (`npm run openapi` regenerates both). Every
// path, body, query and answer is typed from the document the server serves.
//
//   const terminal = createApiClient({ baseUrl: 'https://tokens.example.com', terminalKey });
//   const { data, error } = await terminal.POST('/api/v1/orders', {
//     params: { header: { 'idempotency-key': crypto.randomUUID() } },
//     body: { company_code: 'C001', employee_id: 'E0001', order_type: 'dine_in', items },
//   });
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths, webhooks } from './schema.js';
export type ApiClient = Client<paths>;

/** A signed-in browser's credentials outside a browser: its cookies and its CSRF token. */
export interface Session {
  /** The Cookie header: the session cookie and XSRF-TOKEN. */
  cookie: string;
  /** The CSRF token (the XSRF-TOKEN cookie's value, decoded), sent as `x-xsrf-token`. */
  xsrf: string;
}

export interface ClientOptions {
  /** The server's origin, e.g. `http://127.0.0.1:3000` (paths start with /api/v1). */
  baseUrl: string;
  /** Sends the session's cookies, and its CSRF token on writes. */
  session?: Session;
  /** A terminal's key, sent as `Authorization: Bearer …` (orders and refunds). */
  terminalKey?: string;
  fetch?: typeof globalThis.fetch;
}

/** A client of the API; with a session or a terminal key, every request carries it. */
export function createApiClient(options: ClientOptions): ApiClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  const { session, terminalKey } = options;
  if (session || terminalKey) {
    client.use({
      onRequest({ request }) {
        if (session) {
          request.headers.set('cookie', session.cookie);
          request.headers.set('x-xsrf-token', session.xsrf);
        }
        if (terminalKey) request.headers.set('authorization', `Bearer ${terminalKey}`);
        return request;
      },
    });
  }
  return client;
}

/** The session a sign-in's Set-Cookie lines give; throws when they hold no session or CSRF token. */
export function sessionFromCookies(setCookie: readonly string[]): Session {
  const pairs = setCookie.map((line) => line.split(';')[0]!.trim());
  const xsrf = pairs.find((pair) => pair.startsWith('XSRF-TOKEN='));
  if (!xsrf || !pairs.some((pair) => /^(__Host-)?sid=/.test(pair))) {
    throw new Error(
      `sign-in set no session cookies: ${pairs.map((p) => p.split('=')[0]).join(', ')}`,
    );
  }
  return { cookie: pairs.join('; '), xsrf: decodeURIComponent(xsrf.slice('XSRF-TOKEN='.length)) };
}

/**
 * Signs in with a username and password (an account without a second factor) and returns the
 * session with a client that sends it; throws on any refusal, with the server's answer.
 */
export async function signIn(
  baseUrl: string,
  username: string,
  password: string,
  options: Pick<ClientOptions, 'fetch'> = {},
): Promise<{ session: Session; client: ApiClient }> {
  const anonymous = createApiClient({ baseUrl, fetch: options.fetch });
  const { response, error } = await anonymous.POST('/api/v1/iam/login', {
    body: { username, password },
  });
  if (response.status !== 200) {
    throw new Error(`sign-in as ${username} answered ${response.status}: ${JSON.stringify(error)}`);
  }
  const session = sessionFromCookies(response.headers.getSetCookie());
  return { session, client: createApiClient({ baseUrl, session, fetch: options.fetch }) };
}
