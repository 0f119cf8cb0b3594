// A request the document accepts is one the server accepts (issue 44): for every operation, a
// request is built from the document alone, its parameters and body sampled from their schemas
// (openapi-sampler: the schema's example, else its default, its first enum value, a value within
// its bounds), checked valid against those schemas, and sent with what the operation's security
// says (a terminal key, or the session and XSRF header of a role the route admits). The server
// may refuse it for what the data is (404, 409, 422), never for its shape: no 400 validation
// answer, no refused key or header the document marks optional. Twice per operation: with only
// what the document requires, then with every field it describes. The suite's answer checker
// (test/contract.ts) holds every answer to the document as well.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { sample } from 'openapi-sampler';
import { can, ROLES, type Permission, type Role } from '@app/contract';
import { createTestApp, type TestApp } from '../test/app';
import { testDatabaseKinds } from '../test/databases';
import { newEmployee, newTerminal, type TestTerminal } from '../test/ledger';
import { newCompany, signedIn, newMerchant, type SignedInUser } from '../test/management';

type Json = Record<string, unknown>;
interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: Json;
  example?: unknown;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
  security?: Array<Record<string, string[]>>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

/** The codes of a refusal for the request's shape: the document should have refused it first. */
const SHAPE_CODES = new Set([
  'BODY_INVALID',
  'QUERY_PARAM_INVALID',
  'REQUEST_INVALID',
  'IDEMPOTENCY_KEY_REQUIRED',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'AMOUNT_TOO_LARGE',
  // The security the document states was given: a refusal of it is the document's mistake.
  'UNAUTHORIZED',
  'CSRF_INVALID',
]);

/** Writes before deletions, and the deletions last, so a deleted record is not needed after. */
const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Operations whose optional field a platform role must send all the same (the document says so in
 * the field's description, as no schema can say a field is required for some roles only): they
 * are sent as the role for which the field is truly optional.
 */
const ROLE_OF: Record<string, Role> = {
  getTokenConfiguration: 'company_admin',
  updateTokenConfiguration: 'company_admin',
};

/**
 * A hang detector, not a measure: some 250 requests and seven sign-ins, on two cores shared with
 * the other suites.
 */
const SLOW = 300_000;

/** A path id no record has: the request reaches its validation and then finds nothing. */
const UNKNOWN_ID = 987_654;

describe.each(await testDatabaseKinds())(
  'every operation, sampled from the document, on %s',
  (kind) => {
    let t: TestApp;
    let document: Document;
    let terminal: TestTerminal;
    const sessions = new Map<Role, SignedInUser>();
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);

    beforeAll(async () => {
      // Webhook targets resolve to loopback, which the server refuses to call: no lookup, no delivery.
      t = await createTestApp(
        kind,
        {},
        { resolve: async () => [{ address: '127.0.0.1', family: 4 }] },
      );
      document = t.app.swagger() as unknown as Document;
      ajv.addSchema(rebase(document) as object, 'openapi.json');
      const company = await newCompany(t);
      const merchant = await newMerchant(t);
      await newEmployee(t.app.deps, company.id);
      terminal = await newTerminal(t.app.deps, merchant.id);
      for (const role of ROLES) {
        const scope =
          role === 'company_admin' || role === 'company_employee'
            ? { companyId: company.id }
            : role.startsWith('merchant_')
              ? { merchantId: merchant.id }
              : {};
        sessions.set(role, await signedIn(t, role, scope));
      }
    }, SLOW);
    afterAll(async () => {
      await t?.close();
    });

    /** A schema of the document, its `#/…` references pointing into it, compiled once. */
    const validators = new Map<string, ReturnType<Ajv['compile']>>();
    const isValid = (schema: Json, value: unknown): string | null => {
      const key = JSON.stringify(schema);
      let validate = validators.get(key);
      if (!validate) {
        validate = ajv.compile(rebase(schema) as object);
        validators.set(key, validate);
      }
      return validate(value) ? null : JSON.stringify(validate.errors?.slice(0, 2));
    };

    /** The role the route's access rule admits first (ROLES' order), for a session operation. */
    const roleFor = (method: string, openApiPath: string): Role | undefined => {
      const url = openApiPath.replace(/\{(\w+)\}/g, ':$1');
      const rule = t.app.accessRules.find(
        (r) => r.method === method.toUpperCase() && r.url === url,
      );
      const permission = rule?.permission as Permission | null | undefined;
      return permission ? ROLES.find((role) => can(role, permission)) : undefined;
    };

    it(
      'accepts a request built from each operation’s schemas, with only what is required and with everything',
      async () => {
        const operations = Object.entries(document.paths)
          .flatMap(([p, byMethod]) =>
            Object.entries(byMethod).map(([method, operation]) => ({ p, method, operation })),
          )
          .sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
        expect(operations.length).toBeGreaterThan(100);
        const problems: string[] = [];
        let sent = 0;
        for (const { p, method, operation } of operations) {
          for (const skipNonRequired of [true, false]) {
            const name = `${method.toUpperCase()} ${p} (${skipNonRequired ? 'required' : 'all'})`;
            const made = (schema: Json) =>
              sample(schema as never, { skipNonRequired, skipReadOnly: true }, document as never);
            let url = p;
            const query = new URLSearchParams();
            const headers: Record<string, string> = {};
            for (const parameter of operation.parameters ?? []) {
              if (!parameter.required && skipNonRequired) continue;
              let value: unknown =
                parameter.in === 'path' && parameter.schema.type === 'integer'
                  ? UNKNOWN_ID
                  : (parameter.example ?? made(parameter.schema));
              // A money request's key is made for it, as a client makes one per action.
              if (parameter.name === 'idempotency-key') value = crypto.randomUUID();
              const invalid = isValid(parameter.schema, value);
              if (invalid) {
                problems.push(
                  `${name}: the sample of ${parameter.in} ${parameter.name} is invalid: ${invalid}`,
                );
                continue;
              }
              if (parameter.in === 'path')
                url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
              else if (parameter.in === 'query') {
                for (const item of [value].flat()) query.append(parameter.name, String(item));
              } else if (parameter.in === 'header') headers[parameter.name] = String(value);
            }
            let payload: string | Buffer | undefined;
            const content = operation.requestBody?.content ?? {};
            if (operation.requestBody && (operation.requestBody.required || !skipNonRequired)) {
              if (content['application/json']) {
                const body = made(content['application/json'].schema);
                const invalid = isValid(content['application/json'].schema, body);
                if (invalid)
                  problems.push(`${name}: the sample of its body is invalid: ${invalid}`);
                payload = JSON.stringify(body);
                headers['content-type'] = 'application/json';
              } else if (content['multipart/form-data']) {
                const boundary = `sample${crypto.randomBytes(6).toString('hex')}`;
                const fields = made(content['multipart/form-data'].schema) as Json;
                const parts = Object.entries(fields).map(([field, value]) =>
                  field === 'file'
                    ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="sample.csv"\r\nContent-Type: text/csv\r\n\r\n${String(value)}\r\n`
                    : `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${String(value)}\r\n`,
                );
                payload = Buffer.from(`${parts.join('')}--${boundary}--\r\n`);
                headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
              } else {
                problems.push(`${name}: no body made for ${Object.keys(content).join(', ')}`);
              }
            }
            // The security the document states: a terminal key, or a session (with its XSRF header
            // when the document asks for it) of a role the route admits; nothing where nothing is needed.
            const security = operation.security ?? [];
            const requirement = security.find((r) => Object.keys(r).length > 0);
            const anonymous =
              security.length === 0 || security.some((r) => Object.keys(r).length === 0);
            if (requirement?.terminalKey) headers.authorization = `Bearer ${terminal.key}`;
            else if (requirement?.session && !anonymous) {
              const role = ROLE_OF[operation.operationId] ?? roleFor(method, p);
              if (!role) {
                problems.push(`${name}: no role is admitted by its access rule`);
                continue;
              }
              const { session } = sessions.get(role)!;
              headers.cookie = session.cookie;
              if (requirement.xsrf) headers['x-xsrf-token'] = session.xsrf;
            }
            const search = query.size > 0 ? `?${query.toString()}` : '';
            const answer = await t.app.inject({
              method: method.toUpperCase() as 'GET',
              url: `${url}${search}`,
              headers,
              ...(payload === undefined ? {} : { payload }),
            });
            sent += 1;
            const code = answer.headers['content-type']?.toString().startsWith('application/json')
              ? (answer.json() as { code?: string }).code
              : undefined;
            if (answer.statusCode >= 400 && code && SHAPE_CODES.has(code)) {
              problems.push(`${name} → ${answer.statusCode} ${code} ${answer.body.slice(0, 300)}`);
            }
          }
        }
        expect(problems).toEqual([]);
        expect(sent).toBeGreaterThan(200);
      },
      SLOW,
    );
  },
);

/**
 * A schema of the document as JSON Schema for ajv: its `#/…` references made to point into
 * `openapi.json`, and OpenAPI 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` made numbers.
 */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `openapi.json${value}`
        : rebase(value),
    ]),
  );
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] === 'boolean') {
      if (out[flag]) out[flag] = out[bound];
      else delete out[flag];
      if (out[flag] !== undefined) delete out[bound];
    }
  }
  return out;
}
