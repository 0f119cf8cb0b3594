import { http, HttpResponse, type JsonBodyType } from 'msw';
import type { Role, SelfUser } from '@app/contract';
import { buildUser } from './fixtures';
import { server } from './server';

/** A `{ data, total }` list answer. */
export const listOf = <T>(data: T[], total = data.length) => ({ data, total });

/** The error envelope of DESIGN 4. */
export const errorBody = (
  status: number,
  code: string,
  extra: { message?: string; metadata?: Record<string, string> } = {},
) =>
  HttpResponse.json(
    { statusCode: status, error: 'Error', message: extra.message ?? code, code, ...extra },
    { status },
  );

export interface Recorded {
  url: URL;
  /** The query, repeated keys as arrays only when repeated. */
  query: Record<string, string | string[]>;
  body: unknown;
  /** The request's headers (an Idempotency-Key, say). */
  headers: Headers;
}

const queryOf = (url: URL) => {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length > 1 ? values : (values[0] ?? '');
  }
  return query;
};

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Answers `method path` with `respond` (a body, or a function of the request) and records every
 * call, so a test can assert what was sent.
 */
export function answer(
  method: Method,
  path: string,
  respond: JsonBodyType | Response | ((call: Recorded) => JsonBodyType | Response),
): Recorded[] {
  const calls: Recorded[] = [];
  server.use(
    http[method](path, async ({ request }) => {
      const url = new URL(request.url);
      const text = method === 'get' ? '' : await request.text();
      const call = {
        url,
        query: queryOf(url),
        body: text ? (JSON.parse(text) as unknown) : undefined,
        headers: request.headers,
      };
      calls.push(call);
      const result = typeof respond === 'function' ? respond(call) : respond;
      return result instanceof Response ? result : HttpResponse.json(result);
    }),
  );
  return calls;
}

/** Signs `role` in for renderApp: the user, with self-info answering it. */
export function signedIn(role: Role, overrides: Partial<SelfUser> = {}): SelfUser {
  const user = buildUser(role, overrides);
  server.use(http.get('/api/v1/iam/self-info', () => HttpResponse.json({ data: user })));
  return user;
}
