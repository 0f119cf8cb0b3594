import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can, MONTH_PATTERN, type Role } from '@app/contract';
import { readSessionCookie } from './modules/iam';
import { resolveSession } from './modules/iam';

/** The page's search parameters as GET /dashboard reads them: invalid values dropped. */
export function dashboardQueryOf(search: URLSearchParams): URLSearchParams {
  const query = new URLSearchParams();
  const month = search.get('month');
  const companyId = search.get('company_id');
  if (month && MONTH_PATTERN.test(month)) query.set('month', month);
  if (companyId && /^[1-9]\d{0,9}$/.test(companyId))
    query.set('company_id', String(Number(companyId)));
  return query;
}

/**
 * What GET /dashboard is sent for a /dashboard page's search parameters, as the web app builds it
 * (apps/web/src/features/dashboard/search.ts `dashboardQueryOf`, then its HTTP client's query
 * string: `month` first, then `company_id`; invalid values read as absent).
 */
export function dashboardRequestOf(search: URLSearchParams): string {
  const text = dashboardQueryOf(search).toString();
  return `/api/v1/dashboard${text ? `?${text}` : ''}`;
}

/**
 * The role of a signed-in user opening /dashboard whose landing page it is (not an employee's
 * wallet); undefined for anyone else, and for every other route. The page itself never fails for
 * it: without a session there is simply nothing to prepare.
 */
export async function dashboardViewer(
  app: FastifyInstance,
  request: FastifyRequest,
  route: string,
): Promise<Role | undefined> {
  if (route !== '/dashboard') return undefined;
  const token = readSessionCookie(request);
  if (!token) return undefined;
  const { database, clock, config } = app.deps;
  const session = await resolveSession(database.db, token, clock, config).catch(() => null);
  if (!session) return undefined;
  const role = session.user.type;
  // The employee's wallet and the merchant's takings (issue 43) are drawn in the browser.
  if (!can(role, 'dashboard.view') || can(role, 'wallet.self') || can(role, 'till.view')) {
    return undefined;
  }
  return role;
}

/**
 * The `Link` header of the dashboard's page for its viewer (decision 0044): a preload of the exact
 * `GET /dashboard` the page's loader will make, so its answer comes while the JavaScript still
 * loads instead of after it has run. The app's request takes the preloaded answer (same URL,
 * credentials and headers: apps/web/src/lib/api-client.ts, `preloadable`). Sent only to the
 * dashboard's viewer, so no preload goes unused.
 */
export function dashboardPreloadLink(request: FastifyRequest): string {
  const search = new URLSearchParams(request.url.split('?')[1] ?? '');
  return `<${dashboardRequestOf(search)}>; rel=preload; as=fetch; crossorigin`;
}
