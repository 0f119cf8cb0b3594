import type { paths } from '@app/client';
import { showAlert } from './alert-store';
import {
  networkError,
  responseError,
  sessionExpiredError,
  toApiError,
  type ApiError,
  type FailedResponse,
} from './api-error';
import { readCookie } from './cookies';
import { clearSession, endExpiredSession } from './session';
import type { StepUpCalls } from './step-up-calls';

// The sign-in steps answer 401 for a wrong password or a dead second step, not an expired session.
const SESSION_CALLS: readonly (keyof paths)[] = [
  '/api/v1/iam/login',
  '/api/v1/iam/login/mfa',
  '/api/v1/iam/logout',
];
const SERVER_ERROR_STATUSES = new Set([500, 502, 503]);
const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'X-XSRF-TOKEN';

type QueryValue = string | number | boolean | Date | null | undefined;

export interface RequestOptions {
  /** The query: arrays as repeated keys (`?event=a&event=b`), dates as ISO, no null/undefined. */
  params?: object;
  headers?: Record<string, string>;
  /**
   * `text`: the body as it came, unless it is JSON (a failure's envelope); `blob`: a success's
   * body as bytes (a PDF), a failure's read as text. Default `json`.
   */
  responseType?: 'json' | 'text' | 'blob';
  /** A 401 ends the session quietly, without the expired alert (used by the session probe). */
  quietUnauthorized?: boolean;
  signal?: AbortSignal;
  /**
   * A GET the server may have preloaded for the page (`Link: <…>; rel=preload; as=fetch;
   * crossorigin`, decision 0044): sent with the headers such a preload has (no `Accept`, no XSRF
   * token, which a GET does not need), so the browser hands over the preloaded answer instead of
   * asking again.
   */
  preloadable?: boolean;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

const isSameOrigin = (url: string): boolean => {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
};

function withQuery(url: string, params: object | undefined): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    for (const item of (Array.isArray(value) ? value : [value]) as QueryValue[]) {
      if (item === undefined || item === null) continue;
      query.append(key, item instanceof Date ? item.toISOString() : String(item));
    }
  }
  const search = query.toString();
  if (!search) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${search}`;
}

/** JSON is parsed when it parses (always asked for a `json` call); else the text as it came. */
function parseBody(
  body: string,
  contentType: string,
  responseType: 'json' | 'text' | 'blob',
): unknown {
  if (body === '' || (responseType === 'text' && !contentType.includes('json'))) return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

const isSessionCall = (url: string): boolean => {
  const path = url.split('?')[0] ?? '';
  return SESSION_CALLS.some((call) => path === call || path.endsWith(call));
};

/** Step-up (DESIGN 9): the session is fine, the action wants a fresh proof of who is there. */
const STEP_UP_CODE = 'REAUTHENTICATION_REQUIRED';

/** Spec 8, transport behaviour: expired session, server errors, one ApiError for the rest. */
function failure(url: string, response: FailedResponse, options: RequestOptions): ApiError {
  const isStepUp = (response.data as { code?: unknown } | null)?.code === STEP_UP_CODE;
  if (response.status === 401 && !isSessionCall(url) && !isStepUp) {
    if (options.quietUnauthorized) {
      clearSession();
    } else {
      showAlert({
        id: 'session-expired',
        titleKey: 'alerts.session_expired_title',
        messageKey: 'alerts.session_expired_message',
        confirmKey: 'alerts.ok',
        onConfirm: endExpiredSession,
      });
    }
    return sessionExpiredError(response.data);
  }

  if (SERVER_ERROR_STATUSES.has(response.status)) {
    showAlert({
      id: 'server-error',
      titleKey: 'alerts.server_error_title',
      messageKey: 'alerts.server_error_message',
      confirmKey: 'alerts.ok',
    });
    return responseError(response, { alerted: true });
  }

  return responseError(response);
}

async function send<T>(
  method: string,
  url: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const target = withQuery(url, options.params);
  const preloadable = options.preloadable === true && method === 'GET';
  const headers = new Headers(preloadable ? {} : { Accept: 'application/json' });
  let payload: BodyInit | undefined;
  // FormData goes as multipart with the boundary the browser picks; no body, no content type.
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  // Only ever echo the token to our own origin.
  const xsrf = readCookie(XSRF_COOKIE);
  if (xsrf && !preloadable && isSameOrigin(target)) headers.set(XSRF_HEADER, xsrf);

  let response: Response;
  let text: string;
  try {
    response = await fetch(target, {
      method,
      headers,
      body: payload,
      credentials: 'same-origin',
      signal: options.signal,
    });
    if (
      options.responseType === 'blob' &&
      response.ok &&
      !(response.headers.get('content-type') ?? '').includes('json')
    ) {
      const blob = await response.blob();
      return { data: blob as T, status: response.status, headers: response.headers };
    }
    text = await response.text();
  } catch (cause) {
    throw networkError(cause);
  }
  const data = parseBody(
    text,
    response.headers.get('content-type') ?? '',
    options.responseType ?? 'json',
  );
  if (!response.ok) {
    throw failure(url, { status: response.status, statusText: response.statusText, data }, options);
  }
  return { data: data as T, status: response.status, headers: response.headers };
}

/** The step-up dialog's two calls, made here and handed to it (lib/step-up-calls.ts). */
const STEP_UP_CALLS: StepUpCalls = {
  hasSecondFactor: () =>
    request<{ data: { mfa_enabled: boolean } }>('GET', '/api/v1/iam/mfa', undefined, {}).then(
      (response) => response.data.data.mfa_enabled,
    ),
  reauthenticate: (proof) =>
    request('POST', '/api/v1/iam/reauthenticate', proof, {}).then(() => undefined),
};

/** Every failure is an ApiError: anything that is not an HTTP failure is `Unknown error`. */
export async function request<T>(
  method: string,
  url: string,
  body: unknown,
  options: RequestOptions | undefined,
): Promise<ApiResponse<T>> {
  try {
    return await send<T>(method, url, body, options);
  } catch (cause) {
    const error = toApiError(cause);
    if (error.status === 401 && error.code === STEP_UP_CODE) {
      // Asked in place; the same request (body, Idempotency-Key) goes again once confirmed, so
      // the form that sent it keeps what was typed and waits (lib/step-up.tsx).
      const { confirmIdentity } = await import('./step-up');
      if (await confirmIdentity(STEP_UP_CALLS)) return request<T>(method, url, body, options);
    }
    throw error;
  }
}

/**
 * HTTP transport of spec 7 on the platform's fetch: same origin, JSON, repeated-key arrays, the
 * `XSRF-TOKEN` cookie echoed as `X-XSRF-TOKEN` to our own origin, no timeout. It takes any URL:
 * the app calls it only through the typed paths of `api` (`lib/api-client.ts`).
 */
export const transport = {
  get: <T>(url: string, options?: RequestOptions) => request<T>('GET', url, undefined, options),
  /** `options.body`: a DELETE that carries JSON (e.g. turning TOTP off with a code). */
  delete: <T>(url: string, options?: RequestOptions & { body?: unknown }) =>
    request<T>('DELETE', url, options?.body, options),
  post: <T>(url: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', url, body, options),
  put: <T>(url: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', url, body, options),
  patch: <T>(url: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', url, body, options),
};
