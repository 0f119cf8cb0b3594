export type ApiErrorKind = 'response' | 'network' | 'unknown';

interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  name?: string;
  status?: number;
  error?: string;
  code?: string;
  metadata?: Record<string, unknown>;
  errors?: unknown[];
  data?: unknown;
  alerted?: boolean;
}

/**
 * The one failure type of every call (STYLE 5). `kind` says where it came from:
 * - `response`: the server answered `{ statusCode, error, message, code?, metadata?, errors? }`;
 * - `network`: no answer (offline, aborted); carries the transport `code` and `name`;
 * - `unknown`: anything else (`Unknown error`).
 */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status?: number;
  readonly error?: string;
  readonly code?: string;
  readonly metadata?: Record<string, unknown>;
  readonly errors?: unknown[];
  /** The response body as received; empty when the server sent none. */
  readonly data?: unknown;
  /** Already shown by a global alert (session expired, server error); toasts skip it. */
  readonly alerted: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = init.name ?? 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.error = init.error;
    this.code = init.code;
    this.metadata = init.metadata;
    this.errors = init.errors;
    this.data = init.data;
    this.alerted = init.alerted ?? false;
  }
}

export const isApiError = (value: unknown): value is ApiError => value instanceof ApiError;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** What the server answered to a failed call. */
export interface FailedResponse {
  status: number;
  statusText: string;
  /** The body, parsed when it is JSON; '' when there is none. */
  data: unknown;
}

/** A failure with a response: `{ statusCode, error, message, code?, metadata?, errors? }`. */
export function responseError(
  response: FailedResponse,
  options: { alerted?: boolean } = {},
): ApiError {
  const body = isRecord(response.data) ? response.data : {};
  const error = text(body.error) ?? text(response.statusText);
  return new ApiError({
    kind: 'response',
    status: response.status,
    error,
    message: text(body.message) ?? error ?? '',
    code: text(body.code),
    metadata: isRecord(body.metadata) ? body.metadata : undefined,
    errors: Array.isArray(body.errors) ? body.errors : undefined,
    data: response.data,
    alerted: options.alerted,
  });
}

/**
 * A failure without a response (offline, refused, cut off, aborted), with the codes and
 * messages axios gave them before: `ERR_NETWORK` "Network Error", `ERR_CANCELED` "canceled".
 */
export function networkError(cause: unknown): ApiError {
  const aborted = cause instanceof DOMException && cause.name === 'AbortError';
  return new ApiError({
    kind: 'network',
    name: aborted ? 'AbortError' : 'NetworkError',
    code: aborted ? 'ERR_CANCELED' : 'ERR_NETWORK',
    message: aborted ? 'canceled' : 'Network Error',
  });
}

/** Anything else a call can throw: an ApiError as it is, else `Unknown error` (spec 8). */
export function toApiError(cause: unknown): ApiError {
  if (cause instanceof ApiError) return cause;
  return new ApiError({ kind: 'unknown', message: 'Unknown error' });
}

/** The failure of a call that hit an expired session (spec 8): 401 Unauthorized. */
export const sessionExpiredError = (data: unknown): ApiError =>
  new ApiError({
    kind: 'response',
    status: 401,
    error: 'Unauthorized',
    message: 'Unauthorized',
    data,
    alerted: true,
  });
