import type { Config } from '../config';
import type { Database } from '../db/client';
import type { AppState } from './app-state';
import type { Clock } from './clock';
import type { Mailer } from './mailer';
import type { Metrics } from './metrics';

/** What a service needs from the app: passed in, never reached through globals (STYLE 3). */
export interface ServiceDeps {
  config: Config;
  database: Database;
  clock: Clock;
  /** The app's own caches and batches, made by buildApp (app-state.ts). */
  state: AppState;
  /** The app's counters (orders, refunds, resets, job runs); absent in service-level tests. */
  metrics?: Metrics | undefined;
  /** Sends mail (invitations); absent when no SMTP server is configured. */
  mailer?: Mailer | undefined;
}

/** What a step inside a caller's transaction needs: the time and the programme's time zone. */
export interface TimeDeps {
  clock: Clock;
  config: Pick<Config, 'APP_TIMEZONE'>;
}
