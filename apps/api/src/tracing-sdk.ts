// OpenTelemetry, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set (tracing.ts decides; decision
// 0019): spans of every HTTP request (http), of its Fastify route and hooks (@fastify/otel) and of
// every SQL statement sent to PostgreSQL (pg), exported over OTLP/HTTP. PGlite runs in-process and
// has no spans. The standard OTEL_* variables (service name, resource attributes, sampler, headers,
// OTEL_EXPORTER_OTLP_PROTOCOL=http/json) apply as the SDK documents them.
import { register } from 'node:module';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { Config } from './config';

/** Stops tracing, flushing the spans still buffered. */
export type StopTracing = () => Promise<void>;

export type TracingConfig = Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME'>;

/** Starts the SDK; the app must be imported after this returns. */
export async function startTracing(
  config: TracingConfig & { OTEL_EXPORTER_OTLP_ENDPOINT: string },
): Promise<StopTracing> {
  // The app is ECMAScript modules: import-in-the-middle's loader hook lets the instrumentations
  // patch what `import` loads (require-in-the-middle sees only `require`).
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const base = config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '');
  const sdk = new NodeSDK({
    serviceName: config.OTEL_SERVICE_NAME,
    traceExporter: new OTLPTraceExporter({
      // The signal path is appended, as the SDK does for OTEL_EXPORTER_OTLP_ENDPOINT.
      url: `${base}/v1/traces`,
    }),
    // Traces only: the metrics are Prometheus's (GET /metrics), the logs pino's.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation(),
      // Route hooks stay unwrapped: the deny-by-default check reads the access guard off them.
      new FastifyOtelInstrumentation({ registerOnInitialization: true, instrumentHooks: false }),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  // The loader thread has seen every module the instrumentations asked to patch.
  await waitForAllMessagesAcknowledged();
  return () => sdk.shutdown();
}
