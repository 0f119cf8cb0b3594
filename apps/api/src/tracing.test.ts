// Traces (DESIGN 4.2, decision 0019): with OTEL_EXPORTER_OTLP_ENDPOINT set, the real server process
// on PostgreSQL sends, for one request, a span for its route and spans for its SQL, in one trace,
// to a small OTLP/HTTP receiver run by the test (the HTTP exporter sends JSON). Without the
// variable the loader imports nothing of OpenTelemetry.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../test/databases';
import { startServer, until, type ServerProcess } from '../test/server-process';
import { loadConfig } from './config';
import { startTracingIfConfigured, type TracingSdk } from './tracing';

describe('the tracing loader', () => {
  const config = (env: Record<string, string>) =>
    loadConfig({ NODE_ENV: 'test', DEMO_DATA: 'false', ...env });

  it('imports no OpenTelemetry module when no endpoint is set', async () => {
    let imported = 0;
    const load = async (): Promise<TracingSdk> => {
      imported += 1;
      return import('./tracing-sdk');
    };
    expect(await startTracingIfConfigured(config({}), load)).toBeNull();
    expect(imported).toBe(0);
  });

  it('imports the SDK and starts it with the endpoint when one is set', async () => {
    const started: string[] = [];
    const load = async (): Promise<TracingSdk> => ({
      startTracing: async (c) => {
        started.push(`${c.OTEL_EXPORTER_OTLP_ENDPOINT} ${c.OTEL_SERVICE_NAME}`);
        return async () => undefined;
      },
    });
    const stop = await startTracingIfConfigured(
      config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }),
      load,
    );
    expect(stop).toBeTypeOf('function');
    expect(started).toEqual(['http://127.0.0.1:4318 token-back-office-api']);
  });
});

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpValue }[];
  scope: string;
}
interface OtlpExport {
  resourceSpans?: {
    scopeSpans?: { scope?: { name?: string }; spans?: Omit<OtlpSpan, 'scope'>[] }[];
  }[];
}

/** An attribute's value; several keys cover the old and the stable semantic conventions. */
const attribute = (span: OtlpSpan, ...keys: string[]) => {
  const value = span.attributes?.find((a) => keys.includes(a.key))?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? String(value.intValue) : undefined);
};

describe.each((await testDatabaseKinds()).filter((k) => k === 'postgres'))(
  'traces of the server on %s',
  () => {
    let db: TestDatabase;
    let server: ServerProcess;
    let receiver: http.Server;
    const spans: OtlpSpan[] = [];
    const paths: string[] = [];

    beforeAll(async () => {
      db = await createTestDatabase('postgres');
      receiver = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
          for (const resource of body.resourceSpans ?? []) {
            for (const scope of resource.scopeSpans ?? []) {
              for (const span of scope.spans ?? []) {
                spans.push({ ...span, scope: scope.scope?.name ?? '' });
              }
            }
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const { port } = receiver.address() as AddressInfo;
      server = await startServer({
        DATABASE_URL: db.url!,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        // The batch processor's delay: spans reach the receiver soon after the request.
        OTEL_BSP_SCHEDULE_DELAY: '100',
      });
    });
    afterAll(async () => {
      await server?.stop();
      await new Promise((resolve) => receiver?.close(resolve));
      await db?.drop();
    });

    it('sends a span for the route and spans for its SQL, in the request’s trace', async () => {
      const res = await fetch(`${server.baseURL}/api/v1/iam/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'nobody-here', password: 'Wrong-Pa55word!' }),
      });
      expect(res.status).toBe(401);

      const routeSpan = () =>
        spans.find(
          (s) =>
            s.kind === 2 &&
            attribute(s, 'http.route') === '/api/v1/iam/login' &&
            attribute(s, 'http.request.method', 'http.method') === 'POST',
        );
      await until('the request’s server span', async () => routeSpan() !== undefined, 30_000);
      const request = routeSpan()!;
      expect(request.name).toBe('POST /api/v1/iam/login');
      expect(attribute(request, 'http.response.status_code', 'http.status_code')).toBe('401');

      const sqlOfTheRequest = () =>
        spans.filter(
          (s) => s.traceId === request.traceId && s.scope === '@opentelemetry/instrumentation-pg',
        );
      await until('the request’s SQL spans', async () => sqlOfTheRequest().length > 0, 30_000);
      const statements = sqlOfTheRequest()
        .map((s) => attribute(s, 'db.query.text') ?? attribute(s, 'db.statement'))
        .filter((text): text is string => Boolean(text));
      // Sign-in reads the users table (and the sign-in throttle) for the submitted name.
      expect(statements.some((text) => /\busers\b/i.test(text))).toBe(true);
      // Fastify's own span for the route is in the same trace.
      expect(
        spans.some(
          (s) =>
            s.traceId === request.traceId &&
            s.scope === '@fastify/otel' &&
            attribute(s, 'http.route') === '/api/v1/iam/login',
        ),
      ).toBe(true);
      // Only traces are exported: no OTLP metrics or logs from the SDK.
      expect(paths.every((p) => p.startsWith('POST /v1/traces application/json'))).toBe(true);
    });
  },
);
