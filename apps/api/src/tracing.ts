// Whether to trace, decided before anything else loads (decision 0019). This file imports no
// OpenTelemetry module: the SDK (tracing-sdk.ts) is imported only when OTEL_EXPORTER_OTLP_ENDPOINT
// is set, so an unconfigured server loads none of it and pays nothing.

// Types only (erased at run time): importing them loads nothing of the SDK.
import type { StopTracing, TracingConfig } from './tracing-sdk';

export type { StopTracing, TracingConfig };

/** What the loader needs of the SDK module. */
export interface TracingSdk {
  startTracing(
    config: TracingConfig & { OTEL_EXPORTER_OTLP_ENDPOINT: string },
  ): Promise<StopTracing>;
}

/**
 * Starts tracing when configured and returns how to stop it; null, and nothing imported, when
 * not. Must run before the app, Fastify or pg is imported: instrumentation patches modules as they
 * load, and a module loaded earlier stays unpatched. `load` is the SDK's import (tests spy on it).
 */
export async function startTracingIfConfigured(
  config: TracingConfig,
  load: () => Promise<TracingSdk> = () => import('./tracing-sdk'),
): Promise<StopTracing | null> {
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return null;
  const { startTracing } = await load();
  return startTracing({ ...config, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
}
