// The OpenAPI document (`/api/docs/json`, `docs/openapi.json`): what an integrator and a client
// generator read (DESIGN 6, "Integrations"). Routes declare their own summary, tags, operationId
// and answers; this module adds what follows from the house's rules, so no route can forget it:
// the security each route really has (from its access rule), the error answers every route can
// give (refusals, 500, 503), CSV bodies as `text/csv`, and one shared error envelope.
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { createJsonSchemaTransformObject, jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STATUS_CODES } from 'node:http';
import { ERROR_CATALOGUE, IDEMPOTENCY_KEY_HEADER, type ErrorCode } from '@app/contract';
import { codesByStatus } from './openapi-errors';
// The resources' names (components.schemas), given before any route's schema is written.
import './openapi-schemas';
import { webhooksDocument } from './modules/webhooks';

/** Marks a response schema as a CSV file: `z.string().meta(CSV_BODY)` (see `csvFileSchema`). */
export const CSV_BODY = { 'x-media-type': 'text/csv' } as const;
/** Marks a response schema as a PDF document: `z.string().meta(PDF_BODY)` (see `pdfFileSchema`). */
export const PDF_BODY = { 'x-media-type': 'application/pdf' } as const;

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The headers a route's own answers send beyond those every answer of its kind has (added by
     * `transform`), by status: `{ 200: ['Set-Cookie'] }`. The suite's answer checker fails on an
     * answer whose header the document does not declare (test/contract.ts).
     */
    responseHeaders?: Partial<Record<number, readonly ResponseHeader[]>>;
    /**
     * A route that reads a multipart upload itself (`request.parts()`, so it has no `body` schema
     * to validate): the form's parts for the document, the `file` and the plain fields beside it.
     */
    upload?: { file: string; fields?: Record<string, Record<string, unknown>> };
  }
}

/** Every header an answer of the API may carry beyond HTTP's own: `components.headers`. */
export const RESPONSE_HEADERS = {
  'X-Request-Id': {
    description:
      'The request’s id, on every answer: the client’s own `X-Request-Id` when it sent one of 1 to 128 letters, digits or `-_.:@/+=`, else one the server made (a UUID). Every log line of the request carries it: quote it when reporting a failure.',
    required: true,
    schema: {
      type: 'string',
      minLength: 1,
      maxLength: 128,
      pattern: '^[A-Za-z0-9._:@/+=-]{1,128}$',
    },
  },
  'Retry-After': {
    description: 'Whole seconds to wait before sending the request again.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Limit': {
    description:
      'The requests a terminal key may make per minute (`TERMINAL_RATE_LIMIT_PER_MINUTE`), shared by every instance of the server.',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description:
      'The requests the key has left in the current minute-long window; past it, 429 TOO_MANY_REQUESTS with `Retry-After`.',
    schema: { type: 'integer' },
  },
  'RateLimit-Reset': {
    description: 'Whole seconds until the current window ends and the count starts again.',
    schema: { type: 'integer', minimum: 1 },
  },
  'Set-Cookie': {
    description:
      'The session cookies: `sid` (`__Host-sid` over HTTPS; HttpOnly) and `XSRF-TOKEN` (the value a write sends back as `x-xsrf-token`), or the two-factor challenge between the two sign-in steps; cleared on sign-out.',
    schema: { type: 'string' },
  },
  Location: {
    description:
      'Where the browser goes next: the identity provider, or back to this site after an OIDC sign-in (decision 0086).',
    schema: { type: 'string' },
  },
  'Content-Disposition': {
    description: 'The file’s name: `attachment; filename="…"`.',
    schema: { type: 'string', example: 'attachment; filename="orders-2025-03.csv"' },
  },
} as const;
export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

const headerRef = (name: ResponseHeader) => ({ $ref: `#/components/headers/${name}` });

/** The headers an answer of this kind and status may carry. */
function headersOf(
  route: RouteFacts,
  status: string,
  own: readonly ResponseHeader[] | undefined,
  file: boolean,
): Json {
  const names: ResponseHeader[] = ['X-Request-Id'];
  if (status === '429' || status === '503') names.push('Retry-After');
  if (route.terminal) names.push('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
  if (file) names.push('Content-Disposition');
  names.push(...(own ?? []));
  return Object.fromEntries([...new Set(names)].map((name) => [name, headerRef(name)]));
}

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
type FastifySchemaHeaders = Partial<Record<number, readonly ResponseHeader[]>>;

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
  // The access rule the auth plugin enforces is the truth, whatever a route wrote (issue 44: five
  // session writes said `session` alone and a generated client sent no XSRF header).
  schema.security = securityOf(facts);
  const responses: Json = { ...((schema.response as Json | undefined) ?? {}) };
  // The codes this operation can answer (src/openapi-errors.ts), by status: each status gets an
  // answer, and `transformObject` writes its codes into it from the operation's `x-error-codes`.
  const headerSchema = schema.headers as { properties?: Json } | undefined;
  const codes = codesByStatus(schema.operationId as string | undefined, {
    ...facts,
    hasBody: schema.body !== undefined,
    hasParams: schema.params !== undefined,
    hasQuery: schema.querystring !== undefined,
    idempotent: headerSchema?.properties?.[IDEMPOTENCY_KEY_HEADER] !== undefined,
    beforeMfaEnrolment: config.beforeMfaEnrolment === true,
  });
  schema['x-error-codes'] = Object.fromEntries(codes);
  for (const status of [...sharedErrorStatuses(facts), ...codes.keys()]) {
    responses[status] ??= { $ref: ERROR_ENVELOPE_REF };
  }
  const own = schema.responseHeaders as FastifySchemaHeaders | undefined;
  delete schema.responseHeaders;
  const upload = schema.upload as FastifySchema['upload'];
  delete schema.upload;
  if (upload) {
    // The form a client sends (never validated as a body: the route reads its parts).
    schema.consumes = ['multipart/form-data'];
    schema.body = {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary', description: upload.file },
        ...upload.fields,
      },
    };
  }
  for (const [status, response] of Object.entries(responses)) {
    const described = describeResponse(status, response as Json);
    const file = Object.keys((described.content as Json | undefined) ?? {}).some(
      (type) => type === CSV_BODY['x-media-type'] || type === PDF_BODY['x-media-type'],
    );
    responses[status] = {
      ...described,
      headers: headersOf(facts, status, own?.[Number(status)], file),
    };
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
  if (!('openapiObject' in documentObject)) throw new Error('OpenAPI 2.0 is not supported');
  const version = String(documentObject.openapiObject.openapi ?? '3.0.3');
  // The named schemas (src/openapi-schemas.ts) written into components.schemas, as the routes'
  // schemas were (zod to JSON Schema for this version of OpenAPI).
  const named = createJsonSchemaTransformObject({
    zodToJsonConfig: { target: version.startsWith('3.0') ? 'openapi-3.0' : 'draft-2020-12' },
  })(documentObject as Parameters<ReturnType<typeof createJsonSchemaTransformObject>>[0]);
  const doc = named as unknown as {
    paths?: Record<string, Record<string, { responses?: Record<string, Json> }>>;
    components?: { schemas?: Json };
  };
  // Under OpenAPI 3.1 zod writes each named schema as a JSON Schema document of its own, with a
  // `$schema` and an `$id` of its own address (`#/components/schemas/Order`), which an `$id` may
  // not be: a component is part of the document, whose dialect OpenAPI 3.1 already names.
  for (const schema of Object.values(doc.components?.schemas ?? {})) {
    if (!schema || typeof schema !== 'object') continue;
    const named = schema as Json;
    delete named.$schema;
    if (typeof named.$id === 'string' && named.$id.startsWith('#')) delete named.$id;
  }
  let envelope: unknown;
  const usedCodes = new Set<ErrorCode>();
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const errorCodes = (operation as Json)['x-error-codes'] as
        Record<string, ErrorCode[]> | undefined;
      for (const [status, codes] of Object.entries(errorCodes ?? {})) {
        const response = operation.responses?.[status];
        if (response) Object.assign(response, errorAnswer(status, codes));
        for (const code of codes) usedCodes.add(code);
      }
      // An error status no code of the operation comes with is one it does not answer: every
      // error the document lists names its codes (a route's copied `errors` said more).
      for (const status of Object.keys(operation.responses ?? {})) {
        if (errorCodes && Number(status) >= 400 && !errorCodes[status]) {
          delete operation.responses![status];
        }
      }
      for (const response of Object.values(operation.responses ?? {})) {
        unwrapHeaderRefs(response);
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
  doc.components = {
    ...doc.components,
    schemas: { ErrorEnvelope: envelope ?? { type: 'object' }, ...doc.components?.schemas },
  };
  addAnswerExamples(doc as never);
  (doc.components as Json).examples = Object.fromEntries(
    [...usedCodes].sort().map((code) => [code, errorExample(code)]),
  );
  keepUsedSchemas(doc);
  allowNullInNullableEnums(doc);
  return doc as never;
};

/** The error envelope of a code, as `components.examples.<code>` (one per code the document uses). */
function errorExample(code: ErrorCode): Json {
  const { status, en } = ERROR_CATALOGUE[code];
  return {
    summary: en,
    value: { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message: en, code },
  };
}

/**
 * An error answer with the codes its operation can send at this status: the `code` enum of its
 * schema (what the answer checker holds every error to), its description listing each code with
 * its English message, and one example per code.
 */
function errorAnswer(status: string, codes: ErrorCode[]): Json {
  return {
    description: [
      STATUS_TEXT[status] ?? 'Refused',
      '',
      ...codes.map((code) => `- \`${code}\`: ${ERROR_CATALOGUE[code].en}`),
    ].join('\n'),
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: ERROR_ENVELOPE_REF },
            {
              type: 'object',
              required: ['code'],
              properties: { code: { type: 'string', enum: codes } },
            },
          ],
        },
        examples: Object.fromEntries(
          codes.map((code) => [code, { $ref: `#/components/examples/${code}` }]),
        ),
      },
    },
  };
}

/**
 * @fastify/swagger writes a response's header as `{ schema: <what the route gave> }`: a header
 * the transform gave as a reference to `components.headers` becomes that reference.
 */
function unwrapHeaderRefs(response: Json): void {
  const headers = response.headers as Record<string, Json> | undefined;
  for (const [name, header] of Object.entries(headers ?? {})) {
    const ref = (header.schema as Json | undefined)?.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/headers/'))
      headers![name] = { $ref: ref };
  }
}

/**
 * A success answer's example, made of its named schemas' examples (`{ data: <the Order's
 * example> }`, a list of one, `{ data: { ok: true } }`), wherever every part of it has one: the
 * terminal's, the terminals', the till's and the webhooks' answers.
 */
function addAnswerExamples(doc: {
  paths: Record<string, Record<string, { responses?: Record<string, Json> }>>;
  components: { schemas: Record<string, Json> };
}): void {
  const exampleOf = (schema: Json | undefined, depth = 0): unknown => {
    if (!schema || depth > 8) return undefined;
    if (schema.example !== undefined) return schema.example;
    if (typeof schema.$ref === 'string' && schema.$ref.startsWith(SCHEMA_REF)) {
      return exampleOf(doc.components.schemas[schema.$ref.slice(SCHEMA_REF.length)], depth + 1);
    }
    // A value the schema admits alone (`ok: true`), or the first of a few.
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
    if (schema.type === 'array') {
      const item = exampleOf(schema.items as Json | undefined, depth + 1);
      return item === undefined ? undefined : [item];
    }
    if (schema.type !== 'object' || !schema.properties) return undefined;
    const out: Json = {};
    for (const name of (schema.required as string[] | undefined) ?? []) {
      const value = exampleOf((schema.properties as Record<string, Json>)[name], depth + 1);
      if (value === undefined) return undefined;
      out[name] = value;
    }
    return out;
  };
  for (const operations of Object.values(doc.paths)) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
        if (!media || Number(status) >= 300 || media.example !== undefined) continue;
        const example = exampleOf(media.schema as Json | undefined);
        if (example !== undefined) media.example = example;
      }
    }
  }
}

/** Every `$ref` to a component schema under `node`, by name. */
function referencedSchemas(node: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) referencedSchemas(item, found);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)) {
        found.add(value.slice(SCHEMA_REF.length));
      } else {
        referencedSchemas(value, found);
      }
    }
  }
  return found;
}

const SCHEMA_REF = '#/components/schemas/';

/**
 * The named schemas the document uses, no others: the registry writes each name both as read
 * (`OrderInput`) and as written (`Order`). A name used only as read loses its `Input` suffix.
 */
function keepUsedSchemas(doc: { components?: { schemas?: Json } }): void {
  const schemas = doc.components!.schemas!;
  const { components, ...rest } = doc as Json;
  const used = referencedSchemas(rest, new Set());
  // Schemas referenced by used schemas are used too.
  for (let size = -1; size !== used.size;) {
    size = used.size;
    for (const name of [...used]) referencedSchemas(schemas[name], used);
  }
  const renamed = new Map<string, string>();
  for (const name of used) {
    const plain = name.replace(/Input$/, '');
    if (plain !== name && !used.has(plain)) renamed.set(name, plain);
  }
  const kept: Json = {};
  for (const name of Object.keys(schemas).sort()) {
    if (used.has(name)) kept[renamed.get(name) ?? name] = schemas[name];
  }
  doc.components = { ...(components as Json), schemas: kept };
  if (renamed.size === 0) return;
  const rewrite = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(rewrite);
    if (!node || typeof node !== 'object') return;
    const object = node as Json;
    const ref = object.$ref;
    if (typeof ref === 'string' && ref.startsWith(SCHEMA_REF)) {
      const name = renamed.get(ref.slice(SCHEMA_REF.length));
      if (name) object.$ref = SCHEMA_REF + name;
    }
    for (const value of Object.values(object)) rewrite(value);
  };
  rewrite(doc);
}

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

/** The operations' tags, in the order a reader meets them, each with what it groups. */
const TAGS = [
  {
    name: 'terminal',
    description:
      'The terminal API: a till’s orders and refunds, with its own Bearer key (DESIGN 6).',
  },
  {
    name: 'terminals',
    description: 'A merchant’s terminals and their keys, managed in the back office.',
  },
  {
    name: 'till',
    description: 'The till in the web app: the merchant roles’ point of sale, signed in.',
  },
  {
    name: 'webhooks',
    description: 'Webhook endpoints, their signing secrets and their delivery log (decision 0038).',
  },
  { name: 'iam', description: 'Sign-in, sessions, two-factor sign-in and the invitation links.' },
  { name: 'users', description: 'The platform’s and the merchants’ user accounts.' },
  { name: 'company admins', description: 'The company administrators of each company.' },
  { name: 'companies', description: 'Companies and their status.' },
  { name: 'employees', description: 'A company’s employees, their import and their sign-in.' },
  { name: 'self-service', description: 'An employee’s own wallet.' },
  {
    name: 'pay-codes',
    description: 'Pay devices and the rotating pay codes a wallet shows (DESIGN 8).',
  },
  { name: 'merchants', description: 'Merchants and their status.' },
  {
    name: 'tokens',
    description:
      'Issuing and distributing tokens, the token configuration and the ledger’s transactions.',
  },
  { name: 'approvals', description: 'Four-eyes approvals of money requests and their policy.' },
  {
    name: 'spending-rules',
    description: 'Spending rules, employee exceptions, holidays and declined orders (DESIGN 7).',
  },
  { name: 'orders', description: 'The order history of the back office.' },
  {
    name: 'settlements',
    description: 'Merchant settlements by half month, their statements and PDFs.',
  },
  { name: 'dashboard', description: 'The dashboard’s figures.' },
  { name: 'reports', description: 'Summary reports by company and employee.' },
  { name: 'exports', description: 'CSV exports of the lists.' },
  { name: 'audit', description: 'The audit log.' },
  { name: 'system', description: 'System periods and the reset date.' },
  { name: 'jobs', description: 'The scheduled jobs, run on demand.' },
];

/** The options of @fastify/swagger: the document's head and the two transforms above. */
export function swaggerOptions(): FastifyDynamicSwaggerOptions {
  // The events a webhook endpoint receives (issue 44, decision 0084).
  const events = webhooksDocument();
  return {
    openapi: {
      openapi: '3.1.0',
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
        contact: { name: 'The programme’s operator', url: 'https://example.invalid/support' },
      },
      tags: TAGS,
      servers: [{ url: '/', description: 'The server that serves this document' }],
      webhooks: events.webhooks as never,
      components: {
        headers: RESPONSE_HEADERS as unknown as Record<string, never>,
        schemas: events.schemas as never,
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
