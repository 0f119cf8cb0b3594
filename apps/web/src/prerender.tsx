/**
 * The sign-in page rendered to HTML at build time (decision 0037), once per language: the
 * `prerender` plugin of vite.config.ts loads this module in Node and writes
 * dist/login.{en,zh}.html, which the API serves for /login by the `lang` cookie. A phone paints
 * the form as soon as the HTML and CSS arrive instead of after the JavaScript, the catalogue and
 * the first render; main.tsx then renders the same page over it (see `takePrerenderedState`).
 *
 * The tree is the app's own: the route table, the root route and the login route, inside the
 * providers of app.tsx, with i18next holding the language's catalogues.
 */
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import i18next from 'i18next';
import { bundledContractResources } from './locales/contract-resources';
import { baseOptions, type Language } from './locales/i18n';
import { routes } from './routes';

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
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'http://localhost')));
  if (context instanceof Response) throw new Error(`${pathname} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { html, title: i18n.t('app.name') };
}
