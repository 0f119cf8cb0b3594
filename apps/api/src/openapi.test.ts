// The contract (issue 20, DESIGN 6 "Integrations"): the document generators read is the one the
// server serves, lints clean, names and secures every operation, and the suite's answer checker
// (test/contract.ts) catches an answer the document does not allow.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document as SpectralDocument, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { errorEnvelopeSchema } from '@app/contract';
import { OPENAPI_FILE } from './openapi-document';
import { createTestApp, type TestApp } from '../test/app';
import { settleContract } from '../test/contract';

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Document = { paths: Record<string, Record<string, Operation>> };

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([p, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${p}`,
      operation,
    })),
  );

describe('the OpenAPI document', () => {
  let t: TestApp;
  let served: Document;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    const answer = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(answer.statusCode).toBe(200);
    served = answer.json();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is the one in docs/openapi.json (run `npm run openapi` after changing a route)', () => {
    const written = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as unknown;
    expect(served).toEqual(written);
  });

  it('passes Redocly’s recommended rules with no error', async () => {
    const config = await createConfig(
      fs.readFileSync(path.resolve(OPENAPI_FILE, '../../redocly.yaml'), 'utf8'),
    );
    const problems = await lintFromString({
      source: JSON.stringify(served),
      absoluteRef: OPENAPI_FILE,
      config,
    });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    // The only warnings are the ones redocly.yaml keeps with their reason.
    expect([...new Set(problems.map((p) => p.ruleId))].sort()).toEqual([
      'no-ambiguous-paths',
      'operation-2xx-response',
    ]);
  });

  it('passes Spectral’s OpenAPI rules (spectral:oas, as .spectral.yaml) with no error', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
    const results = await spectral.run(
      new SpectralDocument(JSON.stringify(served), Json, OPENAPI_FILE),
    );
    const errors = results
      .filter((r) => r.severity === 0)
      .map((r) => `${String(r.code)}: ${r.message} at ${r.path.join('.')}`);
    expect(errors).toEqual([]);
    // Its warnings: only operations outside the integrators' tags without a description yet.
    const warnings = results.filter((r) => r.severity === 1);
    expect([...new Set(warnings.map((r) => r.code))]).toEqual(
      warnings.length > 0 ? ['operation-description'] : [],
    );
  });

  /** A schema's example, its own or its named schema's. */
  const exampleOf = (schema: { example?: unknown; $ref?: string } | undefined): unknown => {
    if (schema?.example !== undefined || !schema?.$ref) return schema?.example;
    const schemas = (served as unknown as { components: { schemas: Record<string, unknown> } })
      .components.schemas;
    return exampleOf(schemas[schema.$ref.replace('#/components/schemas/', '')] as never);
  };

  it('gives every operation a unique camelCase operationId, a summary, tags and its security', () => {
    const all = operations(served);
    expect(all.length).toBeGreaterThan(70);
    const ids = all.map((o) => o.operation.operationId);
    expect(ids.filter((id) => !id || !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { name, operation } of all) {
      expect(operation.summary, name).toBeTruthy();
      expect(operation.tags?.length, name).toBeGreaterThan(0);
      expect(operation.security, name).toBeDefined();
      // Every operation documents the failures every route can answer.
      expect(Object.keys(operation.responses), name).toEqual(
        expect.arrayContaining(['500', '503']),
      );
    }
  });

  it('secures each kind of route as the server does', () => {
    const op = (method: string, p: string) => served.paths[p]![method]!;
    expect(op('post', '/api/v1/iam/login').security).toEqual([]);
    expect(op('get', '/api/v1/companies').security).toEqual([{ session: [] }]);
    expect(op('post', '/api/v1/companies').security).toEqual([{ session: [], xsrf: [] }]);
    expect(op('post', '/api/v1/orders').security).toEqual([{ terminalKey: [] }]);
    expect(op('post', '/api/v1/orders/{id}/refund').security).toEqual([{ terminalKey: [] }]);
  });

  it('requires what the server requires: the XSRF header on every session write, the Idempotency-Key on every money route, page sizes of 10, 20 or 50', () => {
    type Parameter = { in: string; name: string; required?: boolean; schema?: { enum?: unknown } };
    const all = operations(served);
    for (const { name, operation } of all) {
      const write = !name.startsWith('GET ');
      for (const requirement of operation.security ?? []) {
        if ('session' in requirement && write) expect(requirement, name).toHaveProperty('xsrf');
      }
      const parameters = (operation as { parameters?: Parameter[] }).parameters ?? [];
      const pageSize = parameters.find((p) => p.name === 'page_size');
      if (pageSize) expect(pageSize.schema?.enum, name).toEqual([10, 20, 50]);
    }
    // The five writes that said `session` alone (issue 44): the CSRF check applies to them too.
    const op = (id: string) => all.find((o) => o.operation.operationId === id)!;
    expect(op('clearSignInThrottle').operation.security).toEqual([{ session: [], xsrf: [] }]);
    const money = all.filter((o) =>
      [
        'placeOrder',
        'refundOrder',
        'chargeAtTill',
        'refundAtTill',
        'issueCompanyTokens',
        'distributeTokens',
        'approveApproval',
        'rejectApproval',
      ].includes(o.operation.operationId!),
    );
    expect(money).toHaveLength(8);
    for (const { name, operation } of money) {
      const parameters = (operation as { parameters?: Parameter[] }).parameters ?? [];
      expect(
        parameters.find((p) => p.in === 'header' && p.name === 'idempotency-key'),
        name,
      ).toMatchObject({ required: true, schema: { minLength: 1, maxLength: 200 } });
    }
  });

  it('names the error codes of every error answer, operation by operation, each with its message and an example', () => {
    type ErrorAnswer = {
      description: string;
      headers?: Record<string, unknown>;
      content: {
        'application/json': {
          schema: { allOf: [unknown, { properties: { code: { enum: string[] } } }] };
          examples: Record<string, { $ref: string }>;
        };
      };
    };
    const examples = (served as unknown as { components: { examples: Record<string, unknown> } })
      .components.examples;
    for (const { name, operation } of operations(served)) {
      const byStatus = (operation as { 'x-error-codes'?: Record<string, string[]> })[
        'x-error-codes'
      ];
      expect(byStatus, name).toBeDefined();
      const errorStatuses = Object.keys(operation.responses).filter((s) => Number(s) >= 400);
      expect(errorStatuses.sort(), name).toEqual(Object.keys(byStatus!).sort());
      for (const status of errorStatuses) {
        const answer = operation.responses[status] as unknown as ErrorAnswer;
        const media = answer.content['application/json'];
        const codes = media.schema.allOf[1].properties.code.enum;
        expect(codes, `${name} ${status}`).toEqual(byStatus![status]);
        expect(codes.length, `${name} ${status}`).toBeGreaterThan(0);
        for (const code of codes) {
          expect(answer.description, `${name} ${status}`).toContain(`\`${code}\``);
          expect(media.examples[code], `${name} ${status}`).toEqual({
            $ref: `#/components/examples/${code}`,
          });
          expect(examples[code]).toMatchObject({ value: { statusCode: Number(status), code } });
        }
        // Every answer has its request id; a 429 or a 503 says when to come back.
        expect(Object.keys(answer.headers ?? {}), `${name} ${status}`).toContain('X-Request-Id');
        if (status === '429' || status === '503') {
          expect(Object.keys(answer.headers ?? {}), `${name} ${status}`).toContain('Retry-After');
        }
      }
    }
    // The terminal's refusals an integrator must handle.
    const placeOrder = served.paths['/api/v1/orders']!.post! as unknown as {
      'x-error-codes': Record<string, string[]>;
    };
    expect(placeOrder['x-error-codes']).toMatchObject({
      '400': expect.arrayContaining(['BODY_INVALID', 'IDEMPOTENCY_KEY_REQUIRED']),
      '401': ['UNAUTHORIZED'],
      '403': expect.arrayContaining(['TERMINAL_INACTIVE', 'MERCHANT_INACTIVE']),
      '409': expect.arrayContaining(['INSUFFICIENT_TOKENS', 'DAILY_LIMIT_EXCEEDED']),
      '422': expect.arrayContaining(['IDEMPOTENCY_KEY_REUSED']),
      '429': ['TOO_MANY_REQUESTS'],
    });
  });

  it('describes every operation an integrator calls, with examples of every terminal request and answer', () => {
    type Described = Operation & {
      description?: string;
      requestBody?: { content: { 'application/json': { schema: { example?: unknown } } } };
      responses: Record<string, { content?: { 'application/json'?: { example?: unknown } } }>;
    };
    const integrators = operations(served).filter(({ operation }) =>
      operation.tags?.some((tag) => ['terminal', 'terminals', 'till', 'webhooks'].includes(tag)),
    );
    expect(integrators.length).toBeGreaterThanOrEqual(26);
    for (const { name, operation } of integrators) {
      expect((operation as Described).description?.length, name).toBeGreaterThan(40);
    }
    const terminal = integrators.filter(({ operation }) => operation.tags?.includes('terminal'));
    expect(terminal).toHaveLength(5);
    for (const { name, operation } of terminal) {
      const described = operation as Described;
      if (!name.startsWith('GET ')) {
        expect(
          exampleOf(described.requestBody?.content['application/json'].schema),
          name,
        ).toBeDefined();
      }
      for (const [status, answer] of Object.entries(described.responses)) {
        const media = answer.content?.['application/json'];
        if (Number(status) < 300) expect(media?.example, `${name} ${status}`).toBeDefined();
      }
    }
  });

  it('documents the CSV files as text/csv, the PDF as application/pdf, and the terminal order with examples', () => {
    const csv = operations(served).filter(
      ({ name }) => name.startsWith('GET /api/v1/exports/') || name.endsWith('/template'),
    );
    expect(csv).toHaveLength(10);
    for (const { name, operation } of csv) {
      expect(Object.keys(operation.responses['200']!.content!), name).toEqual(['text/csv']);
    }
    const pdf = served.paths['/api/v1/settlements/{merchant_id}/{period_start}/pdf']!.get!;
    expect(Object.keys(pdf.responses['200']!.content!)).toEqual(['application/pdf']);
    const order = served.paths['/api/v1/orders']!.post! as unknown as {
      requestBody: { content: { 'application/json': { schema: { $ref: string } } } };
    };
    expect(exampleOf(order.requestBody.content['application/json'].schema)).toMatchObject({
      company_code: expect.any(String),
      employee_id: expect.any(String),
    });
  });
});

describe('the suite’s answer checker', () => {
  it('reports an undocumented status, a wrong media type, a body off its schema, a code its operation does not list and an undeclared header', async () => {
    const t = await createTestApp(
      'pglite',
      {},
      {
        beforeReady: (app) => {
          // Plain (untyped) routes: the probes answer what their schema does not allow on purpose.
          const schema = {
            tags: ['probe'],
            summary: 'A probe of the answer checker',
            operationId: 'contractProbe',
            response: {
              200: z.object({ ok: z.boolean() }),
              500: errorEnvelopeSchema,
              503: errorEnvelopeSchema,
            },
          };
          const config = { public: true };
          app.get('/api/v1/contract-probe/status', { config, schema }, (_q, reply) =>
            reply.code(202 as 200).send({ ok: true }),
          );
          app.get('/api/v1/contract-probe/type', { config, schema }, (_q, reply) =>
            reply.type('text/plain').send('ok'),
          );
          app.get('/api/v1/contract-probe/body', { config, schema }, (_q, reply) =>
            reply.code(500).send({ statusCode: 'conflict' }),
          );
          // A code its operation does not list (its 503s are DATABASE_UNAVAILABLE, SERVICE_UNAVAILABLE).
          app.get('/api/v1/contract-probe/code', { config, schema }, (_q, reply) =>
            reply.code(503).send({
              statusCode: 503,
              error: 'Service Unavailable',
              message: 'Not a code of this operation',
              code: 'DATA_EXISTS',
            }),
          );
          app.get('/api/v1/contract-probe/header', { config, schema }, (_q, reply) =>
            reply.header('x-probe-secret', 'undeclared').send({ ok: true }),
          );
          app.get('/api/v1/contract-probe/fine', { config, schema }, async () => ({ ok: true }));
        },
      },
    );
    const probe = { violations: [...t.contract.violations], exercised: t.contract.exercised };
    try {
      for (const url of ['status', 'type', 'body', 'code', 'header', 'fine']) {
        await t.app.inject({ method: 'GET', url: `/api/v1/contract-probe/${url}` });
      }
      probe.violations = [...t.contract.violations];
    } finally {
      // The probes' violations are this test's subject, not a failure of the app's close.
      t.contract.violations.length = 0;
      await t.close();
    }
    expect(probe.violations).toEqual([
      expect.stringMatching(
        /^GET \/api\/v1\/contract-probe\/status 202: status not in the document/,
      ),
      expect.stringMatching(/^GET \/api\/v1\/contract-probe\/type 200: answered text\/plain/),
      expect.stringMatching(/^GET \/api\/v1\/contract-probe\/body 500: body does not match/),
      expect.stringMatching(
        /^GET \/api\/v1\/contract-probe\/code 503: body does not match the document: .*allowedValues/,
      ),
      'GET /api/v1/contract-probe/header 200: sent header x-probe-secret, not in the document',
    ]);
    expect(() => settleContract(probe)).toThrow(/Answers off the OpenAPI document/);
  });
});
