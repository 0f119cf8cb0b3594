import { ConfigError, loadConfig } from './config';
import { createDatabase } from './db/client';
import { migrate } from './db/migrate';
import { buildApp } from './app';
import { demoSignInBanner, seedOnFirstStart } from './seed';
import { createDemoProgramme, DEMO_TERMINAL_KEY } from './seed/demo-programme';
import { systemClock } from './lib/clock';
import { startJobTimer } from './modules/jobs/jobs.timer';

async function main() {
  const config = loadConfig();
  const database = await createDatabase({
    url: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolSize: config.DATABASE_POOL_SIZE,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  const app = await buildApp({ config, database });
  const applied = await migrate(database);
  app.log.info({ applied, database: database.kind }, 'migrations applied');
  const seed = await seedOnFirstStart({
    config,
    database,
    log: app.log,
    createProgramme: (tx) => createDemoProgramme(tx, { config, clock: systemClock }),
  });

  let stopJobs: () => Promise<void> = async () => undefined;
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await stopJobs();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  // Monthly resets and auto-archive, in every instance (DESIGN 3.6).
  stopJobs = startJobTimer(app);
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

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
