// The document cannot drift from the code (issue 20): every answer a test receives from an app
// built by test/app.ts is checked against the app's own OpenAPI document (`app.swagger()`) with
// ajv: its status must be listed for the operation, its media type declared, its JSON body valid
// against the declared schema. A test file whose app answered off the document fails when the
// app closes. The operations answered are recorded for the run's coverage check
// (test/global-setup.ts lists any operation that no test exercised).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where test files record the operations they exercised (test/global-setup.ts). */
    contractCoverageDir: string;
  }
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, OpenApiResponse> }>>;
}
interface OpenApiResponse {
  content?: Record<string, { schema?: unknown }>;
  headers?: Record<string, unknown>;
}

/**
 * The headers an answer may send without the document declaring them: HTTP's own (OpenAPI
 * ignores Content-Type among a response's headers), and the security policy every answer of the
 * server carries (plugins/security-headers.ts), which says nothing about the operation. Any other
 * header an answer sends must be in its response's `headers`.
 */
export const HEADERS_NOT_DECLARED = new Set([
  'cache-control',
  'connection',
  'content-encoding',
  'content-length',
  'content-type',
  'date',
  'keep-alive',
  'transfer-encoding',
  'vary',
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

/** `/api/v1/companies/:id` (Fastify) → `/api/v1/companies/{id}` (OpenAPI). */
export const openApiPathOf = (fastifyUrl: string) => fastifyUrl.replace(/:(\w+)/g, '{$1}');

export interface ContractRecorder {
  /** Each answer that is not what the document says, as `METHOD path status: what`. */
  violations: string[];
  /** `METHOD /path` of every documented operation that answered. */
  exercised: Set<string>;
}

const CHECKED = Symbol('contract.checked');

interface Checker {
  ajv: Ajv;
  /** By `METHOD /path status`: the compiled schema of that answer's body. */
  validators: Map<string, ValidateFunction>;
}

/**
 * The ajv instance and compiled validators of each document seen in this worker, keyed by the
 * document's text: the apps of a run serve the same document (a test's own options may change
 * it, and then get a checker of their own), and ajv took about a tenth of the CPU of an app's
 * tests when every app loaded the document and compiled its validators again.
 */
const checkers = new Map<string, Checker>();

function checkerFor(document: OpenApiDocument): Checker {
  const text = JSON.stringify(document);
  let checker = checkers.get(text);
  if (!checker) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    // References point into the document (`#/components/schemas/...`).
    ajv.addSchema(JSON.parse(text) as object, 'openapi.json');
    checker = { ajv, validators: new Map() };
    checkers.set(text, checker);
  }
  return checker;
}
type Checked = FastifyRequest & { [CHECKED]?: boolean };

/**
 * Adds the two hooks that check answers: `preSerialization` for bodies that are still objects
 * (before compression), `onSend` for the status and media type of every answer and for bodies
 * already serialized. Call before `app.ready()`.
 */
export function attachContractValidator(app: FastifyInstance): ContractRecorder {
  const recorder: ContractRecorder = { violations: [], exercised: new Set() };
  let document: OpenApiDocument | undefined;
  let checker: Checker | undefined;

  // Both hooks ask for the same request's operation: looked up once.
  const operations = new WeakMap<FastifyRequest, ReturnType<typeof lookUp>>();
  const operationOf = (request: FastifyRequest) => {
    if (!operations.has(request)) operations.set(request, lookUp(request));
    return operations.get(request);
  };
  const lookUp = (request: FastifyRequest) => {
    const url = request.routeOptions.url;
    if (!url?.startsWith('/api/v1/') || request.method === 'HEAD') return undefined;
    // A test's own probe route without a schema declares nothing to hold it to.
    if (!request.routeOptions.schema?.response) return undefined;
    if (!document) {
      document = app.swagger() as unknown as OpenApiDocument;
      checker = checkerFor(document);
    }
    const openApiPath = openApiPathOf(url);
    const operation = document.paths[openApiPath]?.[request.method.toLowerCase()];
    return operation ? { operation, name: `${request.method} ${openApiPath}` } : undefined;
  };

  const validatorFor = (name: string, status: number, schema: unknown): ValidateFunction => {
    const key = `${name} ${status}`;
    const { ajv, validators } = checker!;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(rebase(schema) as object);
      validators.set(key, validate);
    }
    return validate;
  };

  const checkBody = (request: FastifyRequest, reply: FastifyReply, body: unknown) => {
    const found = operationOf(request);
    if (!found) return;
    const status = reply.statusCode;
    const schema =
      found.operation.responses?.[String(status)]?.content?.['application/json']?.schema;
    if (schema === undefined) return; // reported by the onSend check
    const validate = validatorFor(found.name, status, schema);
    if (!validate(body)) {
      recorder.violations.push(
        `${found.name} ${status}: body does not match the document: ` +
          JSON.stringify(validate.errors?.slice(0, 3)) +
          ((body as { code?: unknown } | null)?.code
            ? ` (code ${String((body as { code: unknown }).code)})`
            : ''),
      );
    }
  };

  app.addHook('preSerialization', async (request, reply, payload) => {
    (request as Checked)[CHECKED] = true;
    checkBody(request, reply, payload);
    return payload;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const found = operationOf(request);
    if (!found) return payload;
    recorder.exercised.add(found.name);
    const status = reply.statusCode;
    const response = found.operation.responses?.[String(status)];
    if (!response) {
      recorder.violations.push(
        `${found.name} ${status}: status not in the document${codeOf(payload)}`,
      );
      return payload;
    }
    const declaredHeaders = new Set(
      Object.keys(response.headers ?? {}).map((h) => h.toLowerCase()),
    );
    for (const header of Object.keys(reply.getHeaders())) {
      if (!HEADERS_NOT_DECLARED.has(header) && !declaredHeaders.has(header)) {
        recorder.violations.push(
          `${found.name} ${status}: sent header ${header}, not in the document`,
        );
      }
    }
    const mediaType = String(reply.getHeader('content-type') ?? '')
      .split(';')[0]!
      .trim();
    const declared = Object.keys(response.content ?? {});
    if (declared.length > 0 && !declared.includes(mediaType)) {
      recorder.violations.push(
        `${found.name} ${status}: answered ${mediaType || 'no content type'}, the document says ${declared.join(', ')}`,
      );
      return payload;
    }
    const isEncoded = reply.getHeader('content-encoding') !== undefined;
    if (
      !(request as Checked)[CHECKED] &&
      !isEncoded &&
      mediaType === 'application/json' &&
      typeof payload === 'string'
    ) {
      checkBody(request, reply, JSON.parse(payload));
    }
    return payload;
  });
  return recorder;
}

/** ` (CODE)` of an error envelope sent as text, for the violation's message. */
function codeOf(payload: unknown): string {
  if (typeof payload !== 'string') return '';
  try {
    const code = (JSON.parse(payload) as { code?: unknown }).code;
    return typeof code === 'string' ? ` (${code})` : '';
  } catch {
    return '';
  }
}

/** A schema of the document, its `#/…` references made to point into `openapi.json`. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `openapi.json${value}`
        : rebase(value),
    ]),
  );
}

/** Throws with every violation the app's answers made; records what they exercised. */
export function settleContract(recorder: ContractRecorder): void {
  recordExercised(recorder.exercised);
  if (recorder.violations.length > 0) {
    const unique = [...new Set(recorder.violations)];
    throw new Error(
      `Answers off the OpenAPI document (fix the route's schema or the answer):\n  ${unique.join('\n  ')}`,
    );
  }
}

function recordExercised(exercised: Set<string>): void {
  if (exercised.size === 0) return;
  let dir: string | undefined;
  try {
    dir = inject('contractCoverageDir');
  } catch {
    dir = undefined; // outside a Vitest run
  }
  if (!dir || !fs.existsSync(dir)) return;
  const file = path.join(dir, `${process.pid}-${crypto.randomBytes(4).toString('hex')}.txt`);
  fs.writeFileSync(file, [...exercised].join('\n'));
}
