/** The till's service worker (vite.config.ts `tillApp`): its shell, kept for offline use. */
export const TILL_SERVICE_WORKER = '/till-sw.js';

/**
 * Registers the till's service worker, scoped to the till's page alone: it keeps the till's
 * shell (its page, scripts, styles, catalogues, icons) and answers nothing else, never the API.
 * A new version waits until every till tab is closed (no reload under a charge in progress).
 */
export function registerTillServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register(TILL_SERVICE_WORKER, { scope: '/till' }).catch(() => {
    // Not installable here (an insecure origin, storage refused): the till works online.
  });
}
