import type { paths } from '@app/client';
import type {
  OperationRequestBodyContent,
  PathsWithMethod,
  RequiredKeysOf,
  SuccessResponse,
} from 'openapi-typescript-helpers';
import { toApiError } from './api-error';
import { request, type ApiResponse, type RequestOptions } from './transport';

/**
 * The API as the web calls it: every path, its parameters, its body and its answer typed from the
 * OpenAPI document (`@app/client`'s generated `paths`, imported as types only: not one byte of
 * the client package reaches the bundle). The calls go through the one transport (spec 7: CSRF,
 * the session-expired and server-error alerts, one ApiError for every failure).
 *
 *   const { data } = await api.get('/api/v1/employees/{id}', { params: { path: { id } } });
 */
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A path of the API that answers `method`. */
export type ApiPath<M extends Method = Method> = PathsWithMethod<paths, M>;

/** The document's operation at `path` and `method`. */
export type ApiOperation<P extends keyof paths, M extends Method> = paths[P] extends {
  [K in M]: infer O;
}
  ? O
  : never;

/**
 * A path value is a segment of the address: a numeric one may also come as the segment a route
 * read (a detail page's `:id`), sent as it came, so the server judges an address typed by hand.
 */
type PathValues<V> = { [K in keyof V]: V[K] extends number ? number | string : V[K] };
type WithPath<P> = P extends { path: infer V }
  ? { path: PathValues<V> }
  : P extends { path?: infer V }
    ? { path?: PathValues<V> }
    : unknown;
type Parameters<O> = O extends { parameters: infer P }
  ? Omit<P, 'cookie' | 'path'> & WithPath<P>
  : never;
/** `params.path`, `params.query`, `params.header`; required when the operation requires one. */
type ParamsOption<O> =
  RequiredKeysOf<Parameters<O>> extends never
    ? { params?: Parameters<O> }
    : { params: Parameters<O> };

type RequestBody<O> = O extends { requestBody?: infer B } ? NonNullable<B> : never;
/**
 * The JSON body the document declares; a multipart upload (the CSV imports' `file` part and the
 * fields beside it, as the document describes the form) is sent as a FormData, as is the body of
 * an operation that declares none.
 */
type BodyOption<O> = [RequestBody<O>] extends [never]
  ? { body?: FormData }
  : RequestBody<O> extends { content: { 'multipart/form-data': unknown } }
    ? 'requestBody' extends RequiredKeysOf<O>
      ? { body: FormData }
      : { body?: FormData }
    : 'requestBody' extends RequiredKeysOf<O>
      ? // A route's `nullish()` body is in the document as a required body that may be null: the
        // server takes it left out too (approving without `confirm_payees` sends none).
        null extends OperationRequestBodyContent<O>
        ? { body?: OperationRequestBodyContent<O> }
        : { body: OperationRequestBodyContent<O> }
      : { body?: OperationRequestBodyContent<O> };

/** The parameters of a call: `{ path, query, header }` as the operation declares them. */
export type ApiParams<P extends ApiPath<M>, M extends Method = 'get'> = Parameters<
  ApiOperation<P, M>
>;

type ResponseType = NonNullable<RequestOptions['responseType']>;
type Options<R extends ResponseType> = Omit<RequestOptions, 'params' | 'responseType'> & {
  responseType?: R;
};

/** A success's body: JSON as the document says, or the text (a CSV) or bytes (a PDF) asked for. */
type Answer<O, R extends ResponseType> = R extends 'blob'
  ? Blob
  : R extends 'text'
    ? string
    : O extends { responses: infer Responses extends Record<string | number, unknown> }
      ? SuccessResponse<Responses, 'application/json'>
      : never;

type Init<O, R extends ResponseType, M extends Method> = Options<R> &
  ParamsOption<O> &
  (M extends 'get' ? unknown : BodyOption<O>);
/** The init may be left out when the call needs nothing in it. */
type InitArgs<O, R extends ResponseType, M extends Method> =
  RequiredKeysOf<Init<O, R, M>> extends never ? [init?: Init<O, R, M>] : [init: Init<O, R, M>];

interface AnyInit extends Omit<RequestOptions, 'params'> {
  params?: { path?: object; query?: object; header?: object };
  body?: unknown;
}

/** `/companies/{id}` with `{ id: 9 }` → `/companies/9`, each value encoded as a path segment. */
export function pathOf(template: string, values: object = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = (values as Record<string, unknown>)[name];
    if (value === undefined || value === null) throw new Error(`${template}: no {${name}}`);
    return encodeURIComponent(String(value));
  });
}

async function send(method: Uppercase<Method>, path: string, init: AnyInit = {}) {
  const { params = {}, body, headers, ...options } = init;
  let url: string;
  try {
    url = pathOf(path, params.path);
  } catch (cause) {
    throw toApiError(cause);
  }
  const named: Record<string, string> = {};
  for (const [name, value] of Object.entries(params.header ?? {})) {
    if (value !== undefined && value !== null) named[name] = String(value);
  }
  return request(method, url, body, {
    ...options,
    params: params.query,
    headers: { ...named, ...headers },
  });
}

function method<M extends Method>(name: M) {
  return <P extends ApiPath<M>, R extends ResponseType = 'json'>(
    path: P,
    ...[init]: InitArgs<ApiOperation<P, M>, R, M>
  ) =>
    send(name.toUpperCase() as Uppercase<M>, path, init as AnyInit) as Promise<
      ApiResponse<Answer<ApiOperation<P, M>, R>>
    >;
}

export const api = {
  get: method('get'),
  post: method('post'),
  put: method('put'),
  patch: method('patch'),
  /** A DELETE may carry JSON when the document says so (turning TOTP off with a code). */
  delete: method('delete'),
};

/**
 * A fresh Idempotency-Key for one opening of a money dialog (decision 0068), sent again on every
 * retry from that dialog as the operation's `idempotency-key` header, so the server applies the
 * request once and answers a repeat with the first answer. A random UUID: `crypto.randomUUID`
 * exists only in a secure context; over plain http (a demo on a LAN address) the same from
 * getRandomValues.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type { ApiResponse };
