/**
 * The till's own entry (DESIGN 8, issue 43): /till is a page of its own, not a route of the
 * back-office app (main.tsx), so that a counter's phone loads the till and nothing else: no
 * router, no sidebar, no back-office navigation, no query library (at most 100 kB of JavaScript
 * gzip, first-load.test.ts). It keeps what every page has: the language (EN/ZH), the session and
 * its CSRF token (lib/transport.ts), the way to sign-in when signed out, the alerts. Built by a
 * Vite build of its own (vite.config.ts `tillApp`), with the service worker that keeps its shell
 * for offline use (till-sw.js).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { TillApp } from '@/features/till/components/till-app';
import { handedOver } from '@/features/till/lib/hand-over';
import { registerTillServiceWorker } from '@/features/till/lib/service-worker';
import { watchTillSession } from '@/features/till/lib/till-session';
import { initI18n } from '@/locales/i18n';
import './index.css';

handedOver();
const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from till.html.');

// Signed out, or not a merchant's: another page (sign-in, two-factor, 403) instead.
if (watchTillSession()) {
  void initI18n();
  createRoot(container).render(
    <StrictMode>
      <TillApp />
    </StrictMode>,
  );
  registerTillServiceWorker();
}
