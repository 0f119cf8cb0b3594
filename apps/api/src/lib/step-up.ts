// Step-up (DESIGN 9, issue 45, decision 0083): the actions that move money on someone's word or
// change what an employee may spend need a proof of who is at the keyboard from the last
// STEP_UP_WINDOW_SECONDS (five minutes by default): the session's sign-in, or its last POST
// /iam/reauthenticate (password, or the second factor for a user who has one). Else 401
// REAUTHENTICATION_REQUIRED with details.within_seconds, which the web answers in place.
import type { Config } from '../config';
import { AppError } from './app-error';
import type { AuthUser } from './principal';

/** The part of the configuration the check reads. */
export type StepUpConfig = Pick<Config, 'STEP_UP_WINDOW_SECONDS'>;

/** Throws 401 REAUTHENTICATION_REQUIRED unless `user` proved who it is within the window. */
export function assertRecentAuthentication(
  user: Pick<AuthUser, 'authenticatedAt'>,
  now: Date,
  config: StepUpConfig,
): void {
  const withinSeconds = config.STEP_UP_WINDOW_SECONDS;
  const at = user.authenticatedAt;
  if (at && now.getTime() - at.getTime() <= withinSeconds * 1000) return;
  throw new AppError('REAUTHENTICATION_REQUIRED', {
    details: { within_seconds: withinSeconds },
  });
}
