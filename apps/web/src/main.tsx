import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app';
import { keepPrerenderedInput } from './lib/prerendered';
import { initI18n } from './locales/i18n';
import { routes } from './routes';
import './index.css';

const i18nReady = initI18n();

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html.');

// A transition renders in slices that yield to the browser every few milliseconds, where a plain
// first render is one long task: on a phone that task held the main thread for hundreds of
// milliseconds (decision 0037).
const router = createBrowserRouter(routes);
const render = () => {
  const root = createRoot(container);
  startTransition(() => {
    root.render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    );
  });
};

/** Resolves once the router has loaded the route modules (and data) of the page. */
const routerReady = () =>
  new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });

if (container.hasChildNodes()) {
  // The sign-in page came pre-rendered (decision 0037): it stays on screen until the app can
  // draw the same page whole (catalogue and route module there), then the app takes over, with
  // whatever was typed into it meanwhile.
  void Promise.allSettled([i18nReady, routerReady()]).then(() => {
    keepPrerenderedInput(container);
    render();
  });
} else {
  render();
}
