// The contract (issue 20, DESIGN 6 "Integrations"): the document generators read is the one the
// server serves, lints clean, names and secures every operation, and the suite's answer checker
// (test/contract.ts) catches an answer the document does not allow.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createConfig, lintFromString } from '@redocly/openapi-core';
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
    expect([...new Set(problems.map((p) => p.ruleId))]).toEqual(['no-ambiguous-paths']);
  });

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
      requestBody: { content: { 'application/json': { schema: { example?: unknown } } } };
    };
    expect(order.requestBody.content['application/json'].schema.example).toMatchObject({
      company_code: expect.any(String),
      employee_id: expect.any(String),
    });
  });
});

describe('the suite’s answer checker', () => {
  it('reports an undocumented status, a wrong media type and a body off its schema', async () => {
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
            response: { 200: z.object({ ok: z.boolean() }), 409: errorEnvelopeSchema },
          };
          const config = { public: true };
          app.get('/api/v1/contract-probe/status', { config, schema }, (_q, reply) =>
            reply.code(202 as 200).send({ ok: true }),
          );
          app.get('/api/v1/contract-probe/type', { config, schema }, (_q, reply) =>
            reply.type('text/plain').send('ok'),
          );
          app.get('/api/v1/contract-probe/body', { config, schema }, (_q, reply) =>
            reply.code(409).send({ statusCode: 'conflict' }),
          );
          app.get('/api/v1/contract-probe/fine', { config, schema }, async () => ({ ok: true }));
        },
      },
    );
    const probe = { violations: [...t.contract.violations], exercised: t.contract.exercised };
    try {
      for (const url of ['status', 'type', 'body', 'fine']) {
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
      expect.stringMatching(/^GET \/api\/v1\/contract-probe\/body 409: body does not match/),
    ]);
    expect(() => settleContract(probe)).toThrow(/Answers off the OpenAPI document/);
  });
});
