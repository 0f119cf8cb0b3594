import crypto from 'node:crypto';
import { signInOverHttp } from '@app/api/bench';

/** A signed-in back-office user: its session cookie and the CSRF token echoed on writes. */
export class Session {
  private constructor(
    readonly baseUrl: string,
    private readonly cookie: string,
    private readonly xsrf: string,
  ) {}

  static async signIn(baseUrl: string, username: string, password: string): Promise<Session> {
    const { cookie, xsrf } = await signInOverHttp(baseUrl, username, password);
    return new Session(baseUrl, cookie, xsrf);
  }

  /** Headers for a GET (cookie) or, with `isWrite`, a POST/PUT/PATCH/DELETE (cookie + CSRF). */
  headers(isWrite = false): Record<string, string> {
    return isWrite ? { cookie: this.cookie, 'x-xsrf-token': this.xsrf } : { cookie: this.cookie };
  }

  async get<T>(path: string): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, { headers: this.headers() });
    return answer<T>('GET', path, response);
  }

  /** A POST with a fresh Idempotency-Key, which the money routes require (decision 0068). */
  async post<T>(path: string, body: unknown, expected = [200, 201]): Promise<T> {
    const isForm = body instanceof FormData;
    const headers = { ...this.headers(true), 'idempotency-key': crypto.randomUUID() };
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: isForm ? headers : { ...headers, 'content-type': 'application/json' },
      body: isForm ? body : JSON.stringify(body ?? {}),
    });
    return answer<T>('POST', path, response, expected);
  }

  /** A PUT or DELETE (settings, not money: no Idempotency-Key). */
  async send<T>(method: 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      ...(body === undefined
        ? { headers: this.headers(true) }
        : {
            headers: { ...this.headers(true), 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
    });
    return answer<T>(method, path, response);
  }
}

async function answer<T>(method: string, path: string, response: Response, expected = [200]) {
  const text = await response.text();
  if (!expected.includes(response.status)) {
    throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
  }
  return JSON.parse(text) as T;
}
