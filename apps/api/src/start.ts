import { ConfigError, type Config } from './config';
import { createDatabase } from './db/client';
import { migrate } from './db/migrate';
import { buildApp } from './app';
import { demoSignInBanner, seedOnFirstStart } from './seed';
import { createDemoApprovals } from './seed/demo-approvals';
import { createDemoProgramme, DEMO_TERMINAL_KEY } from './seed/demo-programme';
import { clockStartingAt, ManualClock, systemClock, type Clock } from './lib/clock';
import { createMailer } from './lib/mailer';
import { startJobTimer } from './modules/jobs';
import { startWebhookWorker } from './modules/webhooks';

/**
 * Starts the API with `config` (server.ts imports this module once tracing, when configured, is on).
 * `stopTracing` flushes the spans still buffered before the process exits.
 */
export async function main(
  config: Config,
  stopTracing: () => Promise<void> = async () => undefined,
) {
  const database = await createDatabase({
    url: config.DATABASE_URL,
    readUrl: config.DATABASE_READ_URL,
    dataDir: config.dataDir,
    poolSize: config.DATABASE_POOL_SIZE,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  // SMTP_URL / MAIL_FROM (decision 0025); no SMTP_URL, no mailer: links are handed over.
  const mailer = createMailer(config);
  const clock = clockOf(config);
  const app = await buildApp({ config, database, mailer, clock });
  warnAboutDevelopmentSettings(config, app.log);
  const applied = await migrate(database);
  app.log.info({ applied, database: database.kind }, 'migrations applied');
  const seed = await seedOnFirstStart({
    config,
    database,
    log: app.log,
    createProgramme: (tx) => createDemoProgramme(tx, { config, clock }),
    afterDemoUsers: (tx, { users, tenants }) =>
      createDemoApprovals(tx, { clock, users, companyId: tenants.companyId }),
  });

  let stopJobs: () => Promise<void> = async () => undefined;
  let stopWebhooks: () => Promise<void> = async () => undefined;
  let closing = false;
  /**
   * Graceful shutdown (decision 0019): /readyz turns 503 at once and new requests are refused
   * (503), the jobs timer and the webhook worker stop and their runs in progress end, requests in flight finish with their
   * normal answer, then the server and the database close and the process exits 0. Whatever is
   * still running after SHUTDOWN_TIMEOUT_MS is cut: the process exits 1. A second signal of the
   * same kind ends it at once (Node's default, the handlers being `once`).
   */
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, inFlight: app.lifecycle.inFlight }, 'shutting down');
    const bound = setTimeout(() => {
      app.log.error(
        { inFlight: app.lifecycle.inFlight, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
        'shutdown took too long; exiting with requests unfinished',
      );
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    bound.unref();
    try {
      const drained = app.lifecycle.beginShutdown();
      await stopJobs();
      await stopWebhooks();
      await drained;
      await app.close();
      await database.close();
      mailer?.close();
      await stopTracing();
      app.log.info({ signal }, 'shut down');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  // Monthly resets and auto-archive, in every instance (DESIGN 3.6).
  stopJobs = startJobTimer(app);
  // Webhook deliveries, in every instance (FOR UPDATE SKIP LOCKED shares them; decision 0038).
  stopWebhooks = startWebhookWorker(app);
  app.log.info(
    { address, database: database.kind, dataDir: config.isEmbedded ? config.dataDir : undefined },
    'listening',
  );
  // Printed, not logged: the one place demo passwords appear, and only when just created.
  const banner = demoSignInBanner(seed, address);
  if (config.loadDemo && config.mfaRequiredRoles.length === 0 && !config.MFA_REQUIRED_ROLES) {
    // Decision 0015: the demo's admins sign in without an authenticator app; say so.
    console.log(
      'Demo: two-factor sign-in is not required for any role (MFA_REQUIRED_ROLES unset on the demo;' +
        ' real deployments default to admin,super_hr).',
    );
  }
  if (banner) {
    console.log(banner);
    console.log(
      `  Terminal API (merchant SHOP, terminal SHOPT1): Authorization: Bearer ${DEMO_TERMINAL_KEY}\n`,
    );
  }
}

/**
 * Said once at start (decision 0071): a setting for development and tests left on in a deployment
 * should be seen in the first lines of its log.
 */
export function warnAboutDevelopmentSettings(
  config: Pick<Config, 'WEBHOOKS_ALLOW_HTTP' | 'CLOCK_START' | 'CLOCK_FROZEN'>,
  log: { warn: (fields: object, message: string) => void },
): void {
  if (config.CLOCK_START) {
    log.warn(
      { setting: 'CLOCK_START', start: config.CLOCK_START },
      `CLOCK_START=${config.CLOCK_START}: the server's clock started at that instant, not now${config.CLOCK_FROZEN ? ', and stays there (CLOCK_FROZEN)' : ''}; for development and tests only`,
    );
  }
  if (config.WEBHOOKS_ALLOW_HTTP) {
    log.warn(
      { setting: 'WEBHOOKS_ALLOW_HTTP' },
      'WEBHOOKS_ALLOW_HTTP=true: webhooks may be sent over plain http to this machine (loopback, any port); for development and tests only',
    );
  }
}

/** The system clock, or CLOCK_START's, running on or frozen (CLOCK_FROZEN; decision 0085). */
export function clockOf(config: Pick<Config, 'CLOCK_START' | 'CLOCK_FROZEN'>): Clock {
  if (!config.CLOCK_START) return systemClock;
  return config.CLOCK_FROZEN
    ? new ManualClock(config.CLOCK_START)
    : clockStartingAt(config.CLOCK_START);
}

/** How the entry point reports a failed start. */
export function failStart(error: unknown): never {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
}
