import { closeAllModals } from './modals';
import { clearQueryCache } from './query-client-registry';
import { useAuthStore } from './auth-store';

/**
 * Forgets the signed-in user and every cached answer (spec 4, logout). `rememberLocation: false`
 * (a deliberate logout) sends the user to /login without a `from`.
 */
export function clearSession(options: { rememberLocation?: boolean } = {}): void {
  useAuthStore.getState().signOut(options);
  clearQueryCache();
}

/** After the session-expired alert (spec 4): clear all storage, log out, close the modals. */
export function endExpiredSession(): void {
  clearSession();
  try {
    localStorage.clear();
    sessionStorage.clear();
  } catch {
    // Storage may be unavailable (private mode); the in-memory session is gone anyway.
  }
  closeAllModals();
}
