import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { findDrawnPage, keepEarlyPress, openDrawnPage, setDrawnPage } from './lib/drawn-page';
import { keepPrerenderedInput } from './lib/prerendered';
import { createBrowserAppRouter } from './lib/router';
import { hasTakenServerQueries } from './lib/server-queries';
import { initI18n } from './locales/i18n';
import { routes } from './routes';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html.');

/**
 * A task boundary: the browser may paint and answer input before what follows. The entry's start
 * was one task of ~80 ms on this machine (×4 on Lighthouse's phone): the modules' evaluation, the
 * catalogues' requests and the router's start with its route's chunks. Split, no piece blocks
 * the main thread for long (decision 0049).
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start(root: HTMLElement) {
  const drawn = findDrawnPage(root);
  // A press on the drawn page before it takes one is made again once it does (issue 41 item 6).
  const pressAgain = drawn ? keepEarlyPress(drawn.wrapper) : undefined;
  // The catalogues' requests first: on the dashboard the route's chunks, preloaded beside the
  // entry, keep the main thread busy (compiled as they arrive), and the requests waited behind them.
  const i18nReady = initI18n();
  await nextTask();
  // It starts loading the route modules and running the loaders of the page at once.
  const router = createBrowserAppRouter(routes);
  // A transition renders in slices that yield to the browser every few milliseconds, where a
  // plain first render is one long task: on a phone that task held the main thread for hundreds
  // of milliseconds (decision 0037).
  const render = () => {
    startTransition(() => {
      createRoot(root).render(
        <StrictMode>
          <App router={router} />
        </StrictMode>,
      );
    });
  };
  if (root.hasChildNodes()) {
    // The sign-in page came pre-rendered (decision 0037), or the dashboard drawn by the API
    // (decision 0050): it stays on screen until the app can draw the same page whole (catalogue
    // and route module there).
    await Promise.allSettled([i18nReady, router.ready]);
    if (drawn && hasTakenServerQueries()) {
      // The dashboard, drawn with the figures the cache now starts with: the app's first render
      // is that same markup, so React adopts the nodes on screen instead of building new ones
      // (no document built twice, no second layout), in slices like any transition.
      // Hydrated as it was drawn (for a phone or a wide screen, decision 0051), until the first
      // navigation: the frame's Suspense boundaries hydrate in turns, after the first commit.
      setDrawnPage(drawn.page);
      const drawnAt = router.state.location;
      const stop = router.subscribe((state) => {
        if (state.location === drawnAt) return;
        stop();
        setDrawnPage(null);
      });
      const shown = () => {
        openDrawnPage(drawn.wrapper);
        pressAgain?.();
      };
      startTransition(() => {
        hydrateRoot(
          drawn.wrapper,
          <StrictMode>
            <App router={router} onShown={shown} />
          </StrictMode>,
        );
      });
      return;
    }
    pressAgain?.(false);
    // Otherwise the app replaces it, with whatever was typed into it meanwhile.
    keepPrerenderedInput(root);
  }
  render();
}

void start(container);
