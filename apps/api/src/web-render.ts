import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  can,
  type Dashboard,
  type DashboardRenderInput,
  type DashboardRenderOutput,
  type DashboardSummary,
  type Role,
  type SelfUser,
} from '@app/contract';
import { dashboardQueryOf, dashboardRequestOf } from './web-preload';

type Language = DashboardRenderInput['lng'];

/** What the web build's server entry (apps/web/src/prerender.tsx) offers the API. */
export interface WebRenderModule {
  renderDashboard(input: DashboardRenderInput): Promise<DashboardRenderOutput>;
}

/** JSON inside a `<script>` element: no `<` can close it or open a comment there. */
const scriptJson = (json: string) => json.replace(/</g, '\\u003c');

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A signed-in user's /dashboard rendered on the server with its figures (decision 0050): the
 * answers the page would ask for are asked of this app in-process (`inject`, with the request's
 * cookies: the same routes, scope rule and checks as the browser's own requests), the web build's
 * server entry draws the page from them, and the page carries them for the app to start with.
 *
 * `page` is dist/dashboard.html (index.html with the route's chunks preloaded). Undefined, and the
 * caller serves the page as the browser would draw it alone, when the build has no server entry
 * or any of it fails; a failure is logged, never shown.
 */
export function dashboardRenderer(
  app: FastifyInstance,
  options: { modulePath: string; distDir: string; page: string },
): (request: FastifyRequest, role: Role) => Promise<string | undefined> {
  let loading: Promise<WebRenderModule | undefined> | undefined;
  const load = () =>
    (loading ??= fs.existsSync(options.modulePath)
      ? (import(pathToFileURL(options.modulePath).href) as Promise<WebRenderModule>)
      : Promise.resolve(undefined));
  const catalogues = new Map<Language, Record<string, unknown>>();
  const catalogue = (lng: Language) => {
    let common = catalogues.get(lng);
    if (!common) {
      const file = path.join(options.distDir, 'locales', lng, 'common.json');
      common = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      catalogues.set(lng, common);
    }
    return common;
  };
  const template = fs.readFileSync(path.join(options.distDir, options.page), 'utf8');

  return async (request, role) => {
    try {
      const web = await load();
      if (!web) return undefined;
      const cookie = request.headers.cookie ?? '';
      const ask = async <T>(url: string): Promise<T> => {
        const answer = await app.inject({ method: 'GET', url, headers: { cookie } });
        if (answer.statusCode !== 200) throw new Error(`GET ${url} answered ${answer.statusCode}`);
        return (answer.json() as { data: T }).data;
      };
      const search = new URLSearchParams(request.url.split('?')[1] ?? '');
      const dashboardUrl = dashboardRequestOf(search);
      // As the page asks: the summary for admin and Group HR looking at every company.
      const query = dashboardQueryOf(search);
      const month = query.get('month');
      const withSummary = can(role, 'dashboard.summary') && !query.has('company_id');
      const [user, dashboard, summary] = await Promise.all([
        ask<SelfUser>('/api/v1/iam/self-info'),
        ask<Dashboard>(dashboardUrl),
        withSummary
          ? ask<DashboardSummary>(`/api/v1/dashboard/summary${month ? `?month=${month}` : ''}`)
          : undefined,
      ]);
      const lng: Language = request.cookies?.lang === 'zh' ? 'zh' : 'en';
      const { html, title, state } = await web.renderDashboard({
        lng,
        common: catalogue(lng),
        url: request.url,
        cookie,
        user,
        dashboard,
        ...(summary ? { summary } : {}),
        mobile: isPhoneRequest(request.headers),
      });
      return template
        .replace('<html lang="en">', `<html lang="${lng}">`)
        .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
        .replace(
          '<div id="root"></div>',
          `<div id="root">${html}</div>` +
            `<script type="application/json" id="server-queries">${scriptJson(state)}</script>`,
        );
    } catch (error) {
      request.log.warn({ err: error }, 'the dashboard was not rendered on the server');
      return undefined;
    }
  };
}

/**
 * Whether a request comes from a phone, as its headers tell: Chromium says so itself
 * (`Sec-CH-UA-Mobile: ?1`, sent on every request), other browsers in their user agent ("Mobi",
 * MDN's advice). The dashboard is then drawn as a phone shows it (its sidebar a closed sheet):
 * the app adopts that markup as it is instead of redrawing it (decision 0051). A wrong guess costs
 * what every page cost before: the app redraws what differs once it runs.
 */
export function isPhoneRequest(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['sec-ch-ua-mobile'] === '?1') return true;
  const agent = headers['user-agent'];
  return typeof agent === 'string' && /Mobi/i.test(agent);
}
