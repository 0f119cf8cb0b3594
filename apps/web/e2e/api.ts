import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { signInOverHttp } from '../../api/test/http-session';
import { DEMO_PASSWORD } from './browser';

/** The key of the demo terminal SHOP/T1 (printed on a demo start, see the README). */
export const DEMO_TERMINAL_KEY = 'tk_demo_SHOP_T1_try-the-terminal-api';

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

async function read<T>(response: Response): Promise<ApiAnswer<T>> {
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/**
 * A signed-in API session from node (cookie and XSRF header), for the setup a journey needs but
 * does not test through the screens: what other journeys already drive through the UI. `baseURL`:
 * a server of the journey's own (e2e/step-up.spec.ts), else the shared one.
 */
export async function apiSession(
  username: string,
  password = DEMO_PASSWORD,
  baseURL: string = inject('baseURL'),
) {
  const { cookie, xsrf } = await signInOverHttp(baseURL, username, password);

  return async function call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<ApiAnswer<T>> {
    const response = await fetch(`${baseURL}/api/v1${path}`, {
      method,
      headers: {
        cookie,
        'X-XSRF-TOKEN': xsrf,
        // A fresh key on every write: the money routes require one (decision 0068).
        ...(method === 'GET' ? {} : { 'Idempotency-Key': randomUUID() }),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return read<T>(response);
  };
}

export type ApiCall = Awaited<ReturnType<typeof apiSession>>;

/** Calls the terminal API (Bearer key, a fresh Idempotency-Key) as a merchant terminal would. */
export async function terminalCall<T = unknown>(
  path: string,
  body: unknown,
  key = DEMO_TERMINAL_KEY,
): Promise<ApiAnswer<T>> {
  const response = await fetch(`${inject('baseURL')}/api/v1${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': randomUUID(),
    },
    body: JSON.stringify(body),
  });
  return read<T>(response);
}

/** Expects `answer` to have `status`, with its body in the message when it has not. */
export function expectStatus<T>(answer: ApiAnswer<T>, status: number): T {
  if (answer.status !== status) {
    throw new Error(`expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}
