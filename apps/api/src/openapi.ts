// The OpenAPI document (`/api/docs/json`, `docs/openapi.json`): what an integrator and a client
// generator read (DESIGN 6, "Integrations"). Routes declare their own summary, tags, operationId
// and answers; this module adds what follows from the house's rules, so no route can forget it:
// the security each route really has (from its access rule), the error answers every route can
// give (refusals, 500, 503), CSV bodies as `text/csv`, and one shared error envelope.
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Marks a response schema as a CSV file: `z.string().meta(CSV_BODY)` (see `csvFileSchema`). */
export const CSV_BODY = { 'x-media-type': 'text/csv' } as const;
/** Marks a response schema as a PDF document: `z.string().meta(PDF_BODY)` (see `pdfFileSchema`). */
export const PDF_BODY = { 'x-media-type': 'application/pdf' } as const;

const API_VERSION_PREFIX = '/api/v1/';
const ERROR_ENVELOPE_REF = '#/components/schemas/ErrorEnvelope';

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No content',
  '400': 'The request is invalid: `code` names the rule (error catalogue), `errors` the fields',
  '401': 'No live session, or no valid terminal key',
  '403': 'Not allowed for this role or scope, or the XSRF header is missing or wrong',
  '404': 'No such record in the caller’s scope',
  '409': 'Refused by the record’s state (see `code`)',
  '410': 'The link or record is gone (used or expired)',
  '413': 'The body or file is too large',
  '415': 'Unsupported content type',
  '422': 'Understood but cannot be applied (see `code`)',
  '429': 'Too many attempts: wait for `Retry-After` seconds',
  '500': 'Unexpected server error (logged with the request id)',
  '503': 'The database is unavailable or the server is shutting down: retry after `Retry-After`',
  '504': 'The database did not answer within the statement timeout (TIMEOUT): retry later',
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface RouteFacts {
  method: string;
  terminal: boolean;
  isPublic: boolean;
  permission: boolean;
  csrf: boolean;
  hasInput: boolean;
}

type Json = Record<string, unknown>;

/** The security an operation really has, from the access rule the auth plugin enforces. */
function securityOf(route: RouteFacts): Array<Record<string, string[]>> {
  if (route.terminal) return [{ terminalKey: [] }];
  const session: Record<string, string[]> =
    BODY_METHODS.has(route.method) && route.csrf ? { session: [], xsrf: [] } : { session: [] };
  // Sign-in and the invitation links need nothing; sign-out works with or without a session.
  if (route.isPublic) return route.method === 'GET' || !route.csrf ? [] : [session, {}];
  return [session];
}

/** The error answers any route of this kind can give, beside the ones it declares. */
function sharedErrorStatuses(route: RouteFacts): string[] {
  const statuses = ['500', '503', '504'];
  // Input: its rules (400), and numbers or totals past 2^53 (AMOUNT_TOO_LARGE, 422).
  if (route.hasInput) statuses.push('400', '422');
  if (BODY_METHODS.has(route.method)) statuses.push('400', '413', '415', '422');
  if (route.permission) statuses.push('401', '403');
  if (route.terminal) statuses.push('401', '403', '429');
  // A write made with a session (a public one included) needs its CSRF token.
  if (BODY_METHODS.has(route.method) && route.csrf && !route.terminal) statuses.push('403');
  return statuses;
}

/**
 * Per route: the zod schemas become JSON Schema (fastify-type-provider-zod), then the house's
 * rules are added. Routes outside /api/v1 (health, metrics, docs) stay as they are.
 */
export const transform: NonNullable<FastifyDynamicSwaggerOptions['transform']> = (input) => {
  const out = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  if (!input.url.startsWith(API_VERSION_PREFIX) || !out.schema || out.schema.hide) return out;
  const config = (input.route.config ?? {}) as Json;
  const method = [input.route.method].flat()[0]!.toUpperCase();
  const schema = { ...(out.schema as Json) };
  const facts: RouteFacts = {
    method,
    terminal: config.auth === 'terminal',
    isPublic: config.public === true,
    permission: config.permission !== undefined,
    csrf: config.csrf !== false,
    hasInput: Boolean(schema.querystring ?? schema.params ?? schema.body),
  };
  schema.security ??= securityOf(facts);
  const responses: Json = { ...((schema.response as Json | undefined) ?? {}) };
  for (const status of sharedErrorStatuses(facts)) {
    responses[status] ??= { $ref: ERROR_ENVELOPE_REF };
  }
  for (const [status, response] of Object.entries(responses)) {
    responses[status] = describeResponse(status, response as Json);
  }
  schema.response = responses;
  return { ...out, schema };
};

/** A response's description, and a CSV body declared with CSV_BODY as `text/csv`. */
function describeResponse(status: string, response: Json): Json {
  const description =
    typeof response.description === 'string' && !response.$ref
      ? response.description
      : (STATUS_TEXT[status] ?? 'Answer');
  if (
    response['x-media-type'] === CSV_BODY['x-media-type'] ||
    response['x-media-type'] === PDF_BODY['x-media-type']
  ) {
    const fileSchema: Json = { type: 'string', format: 'binary' };
    return { description, content: { [response['x-media-type']]: { schema: fileSchema } } };
  }
  if (response.$ref) return { description, content: { 'application/json': { schema: response } } };
  return { ...response, description };
}

function isErrorEnvelope(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as { type?: unknown; required?: unknown; properties?: Json };
  return (
    s.type === 'object' &&
    JSON.stringify(s.required) === JSON.stringify(['statusCode', 'error', 'message']) &&
    s.properties !== undefined &&
    'statusCode' in s.properties &&
    'code' in s.properties
  );
}

/**
 * The whole document: every copy of the error envelope becomes one reference to
 * `components.schemas.ErrorEnvelope` (the document was three quarters copies of it).
 */
export const transformObject: NonNullable<FastifyDynamicSwaggerOptions['transformObject']> = (
  documentObject,
) => {
  const doc = ('openapiObject' in documentObject
    ? documentObject.openapiObject
    : documentObject.swaggerObject) as unknown as {
    paths?: Record<string, Record<string, { responses?: Record<string, Json> }>>;
    components?: { schemas?: Json };
  };
  let envelope: unknown;
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const response of Object.values(operation.responses ?? {})) {
        const media = (response.content as Record<string, { schema?: unknown }> | undefined)?.[
          'application/json'
        ];
        if (media && isErrorEnvelope(media.schema)) {
          envelope ??= media.schema;
          media.schema = { $ref: ERROR_ENVELOPE_REF };
        }
      }
    }
  }
  allowNullInNullableEnums(doc);
  doc.components = {
    ...doc.components,
    schemas: { ...doc.components?.schemas, ErrorEnvelope: envelope ?? { type: 'object' } },
  };
  return doc as never;
};

/**
 * `nullable: true` beside an `enum` admits null only when the enum lists it (OpenAPI 3.0.3): zod
 * writes `.nullable()` enums without it, so a validator would refuse the nulls the API sends.
 */
function allowNullInNullableEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) allowNullInNullableEnums(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...(schema.enum as unknown[]), null];
  }
  for (const value of Object.values(schema)) allowNullInNullableEnums(value);
}

/** The options of @fastify/swagger: the document's head and the two transforms above. */
export function swaggerOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Token programme back-office API',
        version: '1.0.0',
        description:
          'The back-office of a token-based meal and benefit programme: companies, employees, ' +
          'merchants and their terminals, the token ledger, reports and exports. Browser ' +
          'clients sign in (`POST /api/v1/iam/login`) and send the `XSRF-TOKEN` cookie back as ' +
          'the `x-xsrf-token` header on every write; terminals use their Bearer key and an ' +
          '`Idempotency-Key` on orders and refunds. Every refusal is the error envelope with a ' +
          'catalogue `code`.',
        license: { name: 'Proprietary', url: 'https://example.invalid/license' },
      },
      servers: [{ url: '/', description: 'The server that serves this document' }],
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'sid',
            description: 'The session cookie set by sign-in (`__Host-sid` over HTTPS)',
          },
          xsrf: {
            type: 'apiKey',
            in: 'header',
            name: 'x-xsrf-token',
            description: 'The value of the `XSRF-TOKEN` cookie, required on every write',
          },
          terminalKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'The terminal’s own key, shown once when it is created or rotated',
          },
        },
      },
    },
    transform,
    transformObject,
  };
}

/** A CSV file answer (an export, a template): `text/csv` in the document. */
export const csvFileSchema = z
  .string()
  .meta(CSV_BODY)
  .describe('A CSV file (text/csv; charset=utf-8), sent as an attachment');

/** A PDF document answer (a settlement statement): `application/pdf` in the document. */
export const pdfFileSchema = z
  .string()
  .meta(PDF_BODY)
  .describe('A PDF document (application/pdf), sent as an attachment');
