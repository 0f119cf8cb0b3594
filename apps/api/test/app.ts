import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { ManualClock } from '../src/lib/clock';
import type { Mailer } from '../src/lib/mailer';
import type { Resolver } from '../src/modules/webhooks';
import { createDatabase } from '../src/db/client';
import { attachContractValidator, settleContract, type ContractRecorder } from './contract';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from './databases';

/** A fixed TOTP-secret key for tests (32 bytes, hex), so no key file is written. */
export const TEST_MFA_ENCRYPTION_KEY = '0f'.repeat(32);

export interface TestApp {
  app: FastifyInstance;
  clock: ManualClock;
  config: Config;
  db: TestDatabase;
  /** What the answer checker found (test/contract.ts); `close()` fails on any violation. */
  contract: ContractRecorder;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Pino options, e.g. `{ stream, level: 'info' }` to capture logs; silent by default. */
  logger?: FastifyServerOptions['logger'];
  /** Runs before `ready()`: the place to register test-only routes. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /** The clock to drive (a second instance shares the first one's); a new one otherwise. */
  clock?: ManualClock;
  /** Sends mail (the invitation tests pass one on a real SMTP server). */
  mailer?: Mailer;
  /** Resolves webhook target names (the webhook tests inject one: no DNS). */
  resolve?: Resolver;
}

/** A built app on a fresh database of the given kind, with a hand-driven clock. */
export async function createTestApp(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const db = await createTestDatabase(kind);
  try {
    return await buildTestApp(db, env, options);
  } catch (error) {
    // An app that fails to start (some tests expect it to) must not leave its database behind.
    await db.drop();
    throw error;
  }
}

/** A built app on a database the caller made (an embedded one in a directory, say). */
export async function buildTestApp(
  db: TestDatabase,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SERVE_WEB: 'false',
    DEMO_DATA: 'false',
    // Test files sign in and call terminals often from one address; the rate-limit tests set their own limits.
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
    TERMINAL_RATE_LIMIT_PER_MINUTE: '100000',
    TERMINAL_AUTH_FAILURES_PER_MINUTE: '10000',
    // Tests sign in as admins without an authenticator; the two-factor tests opt in (decision 0015).
    MFA_REQUIRED_ROLES: 'none',
    MFA_ENCRYPTION_KEY: TEST_MFA_ENCRYPTION_KEY,
    // Failures from one address across a whole test file; the throttle tests set their own.
    SIGN_IN_ADDRESS_FREE_FAILURES: '10000',
    ...env,
  });
  const clock = options.clock ?? new ManualClock();
  const app = await buildApp({
    config,
    database: db.database,
    clock,
    logger: options.logger ?? false,
    mailer: options.mailer,
    resolve: options.resolve,
  });
  await options.beforeReady?.(app);
  const contract = attachContractValidator(app);
  await app.ready();
  return {
    app,
    clock,
    config,
    db,
    contract,
    close: async () => {
      await app.close();
      await db.drop();
      settleContract(contract);
    },
  };
}

/**
 * A second API instance on the first one's PostgreSQL database, with its own connection pool and
 * the same clock, as two servers behind a load balancer. Closing it leaves the database alone.
 */
export async function createSecondInstance(
  first: TestApp,
  env: Record<string, string> = {},
  options: Omit<TestAppOptions, 'clock'> = {},
): Promise<TestApp> {
  if (!first.db.url) throw new Error('createSecondInstance: PostgreSQL only');
  const database = await createDatabase({ url: first.db.url, poolSize: 10 });
  const shared: TestDatabase = { database, url: first.db.url, drop: () => database.close() };
  return buildTestApp(shared, env, { ...options, clock: first.clock });
}
