/**
 * Pages rendered to HTML outside the browser. This module is the web build's server entry
 * (vite.config.ts `serverRender`, dist/.server/prerender.mjs):
 * - at build time, the sign-in page once per language (decision 0037): dist/login.{en,zh}.html,
 *   which the API serves for /login by the `lang` cookie. A phone paints the form as soon as the
 *   HTML and CSS arrive instead of after the JavaScript, the catalogue and the first render;
 *   main.tsx then renders the same page over it (see `takePrerenderedState`);
 * - at request time, in the API, a signed-in user's dashboard with its figures (decision 0050):
 *   the page a phone paints first is the page itself, not an empty one waiting for ~165 kB of
 *   JavaScript. main.tsx takes it over the same way, with the same figures (`takeServerQueries`).
 *
 * The tree is the app's own: the route table and its routes, inside the providers of app.tsx,
 * with i18next holding the language's catalogues.
 */
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { StaticRouter } from 'react-router';
import i18next, { type i18n as I18n } from 'i18next';
import type { DashboardRenderInput, DashboardRenderOutput } from '@app/contract';
import { AppFrame } from './app';
import { selfInfoQueryKey } from './features/auth/api/self-info-key';
import { dashboardKeys } from './features/dashboard/api/get-dashboard';
import { dashboardQueryOf } from './features/dashboard/search';
import { useAuthStore } from './lib/auth-store';
import { setDrawnPage, wrapDrawnPage } from './lib/drawn-page';
import { setServerCookieHeader } from './lib/cookies';
import { prepare, RouteTree, type RouterState } from './lib/router';
import { clearQueryCache, seedQueries } from './lib/query-client-registry';
import type { ServerQueries } from './lib/server-queries';
import { bundledContractResources } from './locales/contract-resources';
import { baseOptions, type Language } from './locales/i18n';
import { routes } from './routes';

/** i18next in `lng` with the app's catalogue `common` (dist/locales) and the contract's. */
async function catalogueInstance(lng: Language, common: Record<string, unknown>): Promise<I18n> {
  const i18n = i18next.createInstance();
  const resources = bundledContractResources();
  await i18n.init({
    ...baseOptions(lng),
    resources: {
      ...resources,
      [lng]: { ...resources[lng], common },
    },
    initAsync: false,
  });
  return i18n;
}

/** The route table at `url`, its modules loaded and its loaders run (lib/router.tsx). */
async function routesAt(url: string): Promise<{ url: string; state: RouterState }> {
  const { matches, failures } = await prepare(routes, url);
  const [failure] = failures.values();
  if (failures.size > 0) throw failure;
  const { pathname, search, hash } = new URL(url, 'http://localhost');
  const location = { pathname, search, hash, state: null, key: 'default' };
  return {
    url,
    state: { initialized: true, location, navigating: false, matches, failures },
  };
}

/** The routes of `at`, drawn as the browser's router draws them. */
const StaticRoutes = ({ at }: { at: { url: string; state: RouterState } }) => (
  <StaticRouter location={at.url}>
    <RouteTree routes={routes} state={at.state} />
  </StaticRouter>
);

/** The sign-in page's markup (the content of #root) and its title, in `lng`. */
export function renderSignIn(
  lng: Language,
  common: Record<string, unknown>,
): Promise<{ html: string; title: string }> {
  return renderPage(lng, common, '/login');
}

/** The markup of the page at `pathname` (a route outside the signed-in layout) and the title. */
export async function renderPage(
  lng: Language,
  common: Record<string, unknown>,
  pathname: string,
): Promise<{ html: string; title: string }> {
  const i18n = await catalogueInstance(lng, common);
  const at = await routesAt(pathname);
  const html = renderToString(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <StaticRoutes at={at} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { html, title: i18n.t('app.name') };
}

/**
 * A signed-in user's dashboard as the app draws it once its figures are there (decision 0050):
 * the markup of #root, the title, and the answers it was drawn from (`state`, JSON for the page's
 * #server-queries script), which the app's cache starts with so that its first render is the
 * same page.
 *
 * The layout reads the page's answers (the late queries' seeds) and the session store; they hold
 * this user's data only for the synchronous render below and are emptied after it, so that no
 * other request can see it.
 */
export async function renderDashboard(input: DashboardRenderInput): Promise<DashboardRenderOutput> {
  const i18n = await catalogueInstance(input.lng, input.common);
  // The loaders run here, signed out: the dashboard's asks for nothing (its figures are below).
  const at = await routesAt(input.url);
  const search = new URL(input.url, 'http://localhost').searchParams;
  const query = dashboardQueryOf(search.get('month'), search.get('company_id'));
  const state: ServerQueries = {
    user_id: input.user.user_id,
    queries: [
      { queryKey: selfInfoQueryKey, data: input.user },
      { queryKey: dashboardKeys.view(query), data: input.dashboard },
      ...(input.summary
        ? [{ queryKey: dashboardKeys.summary(query.month), data: input.summary }]
        : []),
    ],
  };
  // The session store's hook reads the current state on the server too (lib/auth-store.ts).
  useAuthStore.setState({ user: input.user, isAuthenticated: true });
  // The page's queries read them as the browser's first render does, before TanStack Query has
  // loaded (lib/late-query.tsx, decision 0060).
  seedQueries(state.queries);
  setServerCookieHeader(input.cookie);
  const drawn = { phone: input.mobile === true };
  setDrawnPage(drawn);
  try {
    // In the app's frame: the browser hydrates this markup (main.tsx), so its Suspense
    // boundaries are the app's.
    const html = renderToString(
      <I18nextProvider i18n={i18n}>
        <AppFrame>
          <StaticRoutes at={at} />
        </AppFrame>
      </I18nextProvider>,
    );
    return {
      html: wrapDrawnPage(html, drawn),
      title: i18n.t('app.name'),
      state: JSON.stringify(state),
    };
  } finally {
    // The seeds, and the client's cache if one has loaded (not on the server; in the tests).
    clearQueryCache();
    useAuthStore.setState({ user: null, isAuthenticated: false });
    setServerCookieHeader(undefined);
    setDrawnPage(null);
  }
}
