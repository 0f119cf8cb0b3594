import crypto from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  ERROR_CATALOGUE,
  IDEMPOTENCY_KEY_HEADER,
  renderValidationMessage,
  type ErrorCode,
  type ErrorEnvelope,
} from '@app/contract';
import { isAppError } from '../lib/app-error';

type Lang = 'en' | 'zh';

/** The caller's language: the web app's `lang` cookie, else Accept-Language, else English. */
export function requestLanguage(request: FastifyRequest): Lang {
  const cookie = request.cookies?.lang;
  if (cookie) return cookie.toLowerCase().startsWith('zh') ? 'zh' : 'en';
  const header = request.headers['accept-language'];
  return typeof header === 'string' && header.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

const translateField = (message: string, lang: Lang) => renderValidationMessage(message, lang);

/** Services may put `v.*` keys in AppError metadata; they reach the caller translated. */
const translateMetadata = (metadata: Record<string, string>, lang: Lang) =>
  Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, translateField(v, lang)]));

interface ZodIssueLike {
  code?: string;
  path?: PropertyKey[];
  keys?: string[];
  message: string;
}

/** One `field: message` per invalid field, first message wins (DESIGN 4). */
export function issuesToMetadata(issues: ZodIssueLike[], lang: Lang): Record<string, string> {
  const metadata: Record<string, string> = {};
  const put = (field: string, message: string) => {
    metadata[field] ??= translateField(message, lang);
  };
  for (const issue of issues) {
    const base = (issue.path ?? []).map(String).join('.');
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      for (const key of issue.keys) put(base ? `${base}.${key}` : key, 'v.unknown_field');
    } else {
      put(base || '_root', issue.message);
    }
  }
  return metadata;
}

/**
 * Field messages that give a refusal its own code (issue 14): an amount past 2^53 - 1 is
 * AMOUNT_TOO_LARGE, with the same `{ field: message }` metadata a BODY_INVALID carries.
 */
const CODE_OF_FIELD_MESSAGE: Partial<Record<string, ErrorCode>> = {
  'v.amount_too_large': 'AMOUNT_TOO_LARGE',
  'v.subtotal_too_large': 'AMOUNT_TOO_LARGE',
  'v.balance_cap': 'AMOUNT_TOO_LARGE',
};

/** What a request the parser could not read gets as metadata, so the message says what failed. */
const FASTIFY_METADATA: Record<string, Record<string, string>> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: { _root: 'v.json_invalid' },
  FST_ERR_CTP_INVALID_JSON_BODY: { _root: 'v.json_invalid' },
  FST_FILES_LIMIT: { file: 'v.too_many_files' },
};

const FASTIFY_CODES: Record<string, ErrorCode> = {
  // A path the router cannot decode (bad percent-encoding) or a path parameter over 200 characters.
  FST_ERR_BAD_URL: 'QUERY_PARAM_INVALID',
  FST_ERR_MAX_PARAM_LENGTH: 'QUERY_PARAM_INVALID',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BODY_INVALID',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BODY_INVALID',
  FST_ERR_CTP_INVALID_JSON_BODY: 'BODY_INVALID',
  FST_REQ_FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  FST_FILES_LIMIT: 'TOO_MANY_FILES',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  // JSON that JSON.parse reads but secure-json-parse refuses (__proto__, constructor.prototype).
  FST_ERR_CTP_INVALID_JSON: 'BODY_INVALID',
  FST_PARTS_LIMIT: 'PAYLOAD_TOO_LARGE',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
};

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'BODY_INVALID',
  401: 'UNAUTHORIZED',
  403: 'PERMISSION_DENIED',
  404: 'ROUTE_NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  431: 'HEADERS_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
};

// Connection-level failures, a server shutting down or starting, and a primary just demoted to a
// replica (25006, a write reaching it through a balancer that has not yet moved): the database is
// away or moving, not our bug, and the same request will work again shortly (a failover).
const DB_UNAVAILABLE = new Set([
  '25006',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** The Retry-After of a 503 for a database that is unreachable or moving. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

function databaseCode(error: unknown): ErrorCode | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    const message = (current as { message?: unknown }).message;
    if (typeof code === 'string') {
      if (code === '57014') return 'TIMEOUT';
      if (DB_UNAVAILABLE.has(code)) return 'DATABASE_UNAVAILABLE';
    }
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|not queryable/i.test(message)
    ) {
      return 'DATABASE_UNAVAILABLE';
    }
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

function envelope(code: ErrorCode, lang: Lang, extra: Partial<ErrorEnvelope> = {}): ErrorEnvelope {
  const { status } = ERROR_CATALOGUE[code];
  return {
    statusCode: status,
    error: STATUS_CODES[status] ?? 'Error',
    message: ERROR_CATALOGUE[code][lang],
    code,
    ...extra,
  };
}

export function sendError(reply: FastifyReply, body: ErrorEnvelope): FastifyReply {
  return reply.code(body.statusCode).type('application/json; charset=utf-8').send(body);
}

/** Renders every failure as the envelope of DESIGN 4; never a stack trace (STYLE 5). */
export function toEnvelope(error: unknown, request: FastifyRequest): ErrorEnvelope {
  const lang = requestLanguage(request);
  if (isAppError(error)) {
    return envelope(error.code, lang, {
      ...(error.message !== ERROR_CATALOGUE[error.code].en ? { message: error.message } : {}),
      ...(error.metadata ? { metadata: translateMetadata(error.metadata, lang) } : {}),
      ...(error.details ? { details: error.details } : {}),
    });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as FastifyError).validationContext;
    const code: ErrorCode = context === 'body' ? 'BODY_INVALID' : 'QUERY_PARAM_INVALID';
    // fastify-type-provider-zod 6 spreads each zod issue into { keyword, instancePath, message, params }.
    const issues = error.validation.map((v): ZodIssueLike => ({
      code: v.keyword,
      path: v.instancePath.split('/').filter(Boolean),
      keys: Array.isArray(v.params.keys) ? (v.params.keys as string[]) : undefined,
      message: v.message ?? 'v.invalid',
    }));
    // A back-office money route's missing key answers as a terminal's does (decision 0068).
    if (context === 'headers' && issues.some((i) => i.path?.[0] === IDEMPOTENCY_KEY_HEADER)) {
      return envelope('IDEMPOTENCY_KEY_REQUIRED', lang);
    }
    const special = issues.map((i) => CODE_OF_FIELD_MESSAGE[i.message]).find(Boolean);
    return envelope(special ?? code, lang, { metadata: issuesToMetadata(issues, lang) });
  }
  const dbCode = databaseCode(error);
  if (dbCode) return envelope(dbCode, lang);
  const fastifyError = error as Partial<FastifyError>;
  const mapped = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (mapped) {
    const metadata = FASTIFY_METADATA[fastifyError.code!];
    return envelope(mapped, lang, metadata ? { metadata: translateMetadata(metadata, lang) } : {});
  }
  const status = fastifyError.statusCode;
  // Any other client error still answers with a catalogue code (issue 14): its own, else 400.
  if (status && status >= 400 && status < 500)
    return envelope(BY_STATUS[status] ?? 'REQUEST_INVALID', lang);
  return envelope('SERVER_ERROR', lang);
}

/** Node's HTTP parser errors (llhttp `HPE_*`) and timeouts, as catalogue codes. */
const CLIENT_ERROR_CODES: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
  HPE_URI_TOO_LONG: 'URI_TOO_LONG',
  ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
};

/**
 * The raw HTTP answer to a request Node could not parse (a malformed request line or header, a
 * header too large, a request that never finished), written to the socket by Fastify's
 * `clientErrorHandler`: the error envelope with a catalogue code, in English as no header of the
 * request can be trusted to pick the language.
 */
export function clientErrorResponse(error: { code?: unknown }): string {
  const code =
    (typeof error.code === 'string' && CLIENT_ERROR_CODES[error.code]) || 'REQUEST_INVALID';
  const body = JSON.stringify(envelope(code, 'en'));
  const { status } = ERROR_CATALOGUE[code];
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    // No request could be read, so no id of the client's either: a new one, as for any answer.
    `X-Request-Id: ${crypto.randomUUID()}`,
    'X-Content-Type-Options: nosniff',
    'Cache-Control: no-store',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

export function handleClientError(
  this: FastifyInstance,
  error: Error & { code?: unknown },
  socket: Duplex,
): void {
  // A peer that reset the connection is gone: nothing to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ code: error.code }, 'unreadable request');
  if (socket.writable) socket.end(clientErrorResponse(error));
  else socket.destroy();
}

export default fp(
  async function errorsPlugin(app: FastifyInstance) {
    app.setErrorHandler((error, request, reply) => {
      let body: ErrorEnvelope;
      try {
        body = toEnvelope(error, request);
      } catch {
        // Never let a bug in rendering leak its message: fall back to the generic 500.
        body = envelope('SERVER_ERROR', 'en');
      }
      if (isAppError(error) && error.retryAfterSeconds !== undefined) {
        reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
      } else if (body.statusCode === 503) {
        // The database is away (a failover takes seconds): tell clients when to try again.
        reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      }
      // Only a genuine 5xx is an error of ours, logged whole (never sent); a refusal is one line
      // with its code, without the error's text (issue 14: no SQL in the logs for client input).
      if (body.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.info({ code: body.code, statusCode: body.statusCode }, 'request refused');
      return sendError(reply, body);
    });
  },
  { name: 'errors' },
);
