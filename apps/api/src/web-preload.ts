import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can, MONTH_PATTERN } from '@app/contract';
import { readSessionCookie } from './modules/iam/session-cookies';
import { resolveSession } from './modules/iam/sessions.service';

/**
 * What GET /dashboard is sent for a /dashboard page's search parameters, as the web app builds it
 * (apps/web/src/features/dashboard/search.ts `dashboardQueryOf`, then its HTTP client's query
 * string: `month` first, then `company_id`; invalid values read as absent).
 */
export function dashboardRequestOf(search: URLSearchParams): string {
  const query = new URLSearchParams();
  const month = search.get('month');
  const companyId = search.get('company_id');
  if (month && MONTH_PATTERN.test(month)) query.set('month', month);
  if (companyId && /^[1-9]\d{0,9}$/.test(companyId))
    query.set('company_id', String(Number(companyId)));
  const text = query.toString();
  return `/api/v1/dashboard${text ? `?${text}` : ''}`;
}

/**
 * The `Link` header of a client route's page (decision 0044): for /dashboard opened by a signed-in
 * user whose landing page is the dashboard (not an employee's wallet), a preload of the exact
 * `GET /dashboard` the page's loader will make, so its answer comes while the JavaScript still
 * loads instead of after it has run. The app's request takes the preloaded answer (same URL,
 * credentials and headers: apps/web/src/lib/api-client.ts, `preloadable`). Nothing for anyone
 * else, so no preload goes unused.
 */
export async function webPageLinks(
  app: FastifyInstance,
  request: FastifyRequest,
  route: string,
): Promise<string | undefined> {
  if (route !== '/dashboard') return undefined;
  const token = readSessionCookie(request);
  if (!token) return undefined;
  const { database, clock, config } = app.deps;
  // The page itself never fails for it: without the session, no preload (the app asks anyway).
  const session = await resolveSession(database.db, token, clock, config).catch(() => null);
  if (!session) return undefined;
  const role = session.user.type;
  if (!can(role, 'dashboard.view') || can(role, 'wallet.self')) return undefined;
  const search = new URLSearchParams(request.url.split('?')[1] ?? '');
  return `<${dashboardRequestOf(search)}>; rel=preload; as=fetch; crossorigin`;
}
