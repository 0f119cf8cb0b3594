import type { SelfUser } from '@app/contract';
import { can } from '@app/contract/permissions';
import { api } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth-store';
import { clearSession } from '@/lib/session';
import { TILL_PATH } from './till-path';

/** Where the till sends a visitor it cannot serve, by a full page load (the back-office app). */
export const TILL_EXITS = {
  signIn: `/login?${new URLSearchParams({ from: TILL_PATH }).toString()}`,
  signedOut: '/login',
  twoFactor: '/two-factor',
  forbidden: '/error/403',
  backOffice: '/dashboard',
} as const;

/** The till's way out of its page, behind a seam the tests observe. */
export const tillWindow = {
  /** Loads another page of the app in place of the till's (a document load: another entry). */
  leave: (href: string): void => window.location.replace(href),
};

const leaveTill = (href: string) => tillWindow.leave(href);

/** Where `user` must go instead of the till, or null when the till is theirs. */
export function exitFor(user: SelfUser | null): string | null {
  if (!user) return TILL_EXITS.signIn;
  // The server refuses every other call until enrolment (MFA_ENROLMENT_REQUIRED).
  if (user.mfa_enrolment_required) return TILL_EXITS.twoFactor;
  if (!can(user.type, 'till.view')) return TILL_EXITS.forbidden;
  return null;
}

/**
 * The session of the till's page, as the back-office layout keeps it (spec 6), without its router:
 * the user kept on this device draws the till at once (offline too), the session probe
 * (GET /iam/self-info) confirms it; no session, a 401 or a role without the till leaves for the
 * page that serves it. A network failure keeps the till: it works on until the network is back.
 * False when it has left already.
 */
export function watchTillSession(): boolean {
  const state = useAuthStore.getState();
  const exit = exitFor(state.isAuthenticated ? state.user : null);
  if (exit) {
    leaveTill(exit);
    return false;
  }
  // An ended session (a 401, the session-expired alert) signs in again, back to the till; a
  // deliberate sign-out leaves by itself (`signOutOfTill`).
  useAuthStore.subscribe((next, previous) => {
    if (previous.isAuthenticated && !next.isAuthenticated && next.rememberLocation) {
      leaveTill(TILL_EXITS.signIn);
    }
  });
  api.get('/api/v1/iam/self-info', { quietUnauthorized: true }).then(
    (response) => {
      const fresh = response.data.data;
      if (!useAuthStore.getState().isAuthenticated) return;
      useAuthStore.getState().setUser(fresh);
      const away = exitFor(fresh);
      if (away) leaveTill(away);
    },
    () => {
      // A 401 has signed out (the subscription leaves); without an answer the till stays.
    },
  );
  return true;
}

/** Signs out (POST /iam/logout, whatever its answer), then the sign-in page without a `from`. */
export async function signOutOfTill(): Promise<void> {
  try {
    await api.post('/api/v1/iam/logout');
  } catch {
    // Signed out here all the same.
  }
  clearSession({ rememberLocation: false });
  leaveTill(TILL_EXITS.signedOut);
}
