// The server's entry point. OpenTelemetry instrumentation patches http, Fastify and pg as they
// load, so tracing (when configured) starts here before anything of the app is imported: this
// file imports only the configuration (zod and the contract: nothing traced) statically, and the
// app arrives through a dynamic import afterwards (decision 0019). Keep it that way: a static
// import of the app here would load pg and Fastify before they could be patched.
import { ConfigError, loadConfig, type Config } from './config';
import { startTracingIfConfigured } from './tracing';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
const stopTracing = await startTracingIfConfigured(config);
const { main, failStart } = await import('./start');
await main(config, stopTracing ?? undefined).catch(failStart);
