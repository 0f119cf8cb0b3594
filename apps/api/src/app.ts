import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import cookie from '@fastify/cookie';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { swaggerOptions } from './openapi';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { validationErrorMap } from '@app/contract';
import type { Config } from './config';
import type { Database } from './db/client';
import { AppState } from './lib/app-state';
import { systemClock, type Clock } from './lib/clock';
import { AppError } from './lib/app-error';
import errorsPlugin, { handleClientError, sendError, toEnvelope } from './plugins/errors';
import inputGuardsPlugin from './plugins/input-guards';
// Issue 44: every answer carries X-Request-Id, the id every log line of its request carries.
import requestIdPlugin, { genReqId, setRequestIdHeader } from './plugins/request-id';
// Operations (issue 15): Prometheus metrics, readiness while shutting down.
import { createMetrics, type Metrics } from './lib/metrics';
import type { Mailer } from './lib/mailer';
import metricsPlugin, { METRICS_PATH } from './plugins/metrics';
import lifecyclePlugin from './plugins/lifecycle';
import { healthRoutes } from './modules/health';
// Foundation: security headers, sessions and access rules, sign-in.
import securityHeadersPlugin, { setBareSecurityHeaders } from './plugins/security-headers';
import authPlugin from './plugins/auth';
import { dashboardPreloadLink, dashboardViewer } from './web-preload';
import { dashboardRenderer } from './web-render';
// Sign-in and its sessions, and two-factor sign-in (issue 14): the user's own TOTP, the admin
// reset, the enrolment gate.
import {
  csrfTokenMatches,
  iamRoutes,
  mfaAdminRoutes,
  mfaGatePlugin,
  mfaRoutes,
  readSessionCookie,
  resolveSession,
  signInThrottleRoutes,
  XSRF_HEADER,
} from './modules/iam';
// The token ledger (issue 3): wallets, terminals, orders, resets, transactions.
import terminalAuthPlugin from './plugins/terminal-auth';
import { companiesRoutes } from './modules/companies';
import { employeesRoutes } from './modules/employees';
import { selfServiceRoutes } from './modules/self-service';
import { employeePayDevicesRoutes, ownPayDevicesRoutes } from './modules/pay-codes';
// Employee CSV import (issue 4): preview, import, template.
import { employeeImportRoutes } from './modules/employee-import';
import { rewardImportRoutes } from './modules/reward-import';
import { invitationsRoutes } from './modules/invitations';
import { merchantsRoutes } from './modules/merchants';
import { terminalsRoutes } from './modules/terminals';
import { tokensRoutes } from './modules/tokens';
import { ordersRoutes, tillRoutes } from './modules/orders';
import { jobsRoutes } from './modules/jobs';
// User management, company admins, the audit log and system periods (issue 4).
import { usersRoutes } from './modules/users';
import { companyAdminsRoutes } from './modules/company-admins';
import { auditRoutes } from './modules/audit';
import { approvalsRoutes, approvalPolicyRoutes } from './modules/approvals';
import {
  companySpendingRulesRoutes,
  declinesRoutes,
  employeeSpendingExceptionRoutes,
  holidaysRoutes,
} from './modules/spending-rules';
import { systemRoutes } from './modules/system';
import { ssoRoutes } from './modules/sso';
// Reporting (issue 4): order history, dashboard, summary reports, CSV exports.
import { orderHistoryRoutes } from './modules/order-history';
import { dashboardRoutes } from './modules/dashboard';
import { reportsRoutes } from './modules/reports';
import { exportsRoutes } from './modules/exports';
// Integrations (DESIGN 6, decision 0038): webhook endpoints and their delivery log.
import { webhooksRoutes, type Resolver } from './modules/webhooks';
import { settlementsRoutes } from './modules/settlements';
import { scimRoutes, scimTokensRoutes } from './modules/scim';

export interface AppDeps {
  config: Config;
  database: Database;
  clock?: Clock;
  /** Pino options or `false`; tests pass `false` or a capturing stream. */
  logger?: FastifyServerOptions['logger'];
  /** Sends the invitation emails; without it links are only handed over (decision 0025). */
  mailer?: Mailer | undefined;
  /** Resolves webhook target host names (tests inject one); dns.lookup otherwise. */
  resolve?: Resolver | undefined;
  /** The app's own caches and batches (lib/app-state.ts); a fresh one unless a caller shares its own. */
  state?: AppState;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Required<Pick<AppDeps, 'config' | 'database' | 'clock' | 'state'>> & {
      /** This app's own metrics registry and counters (decision 0019). */
      metrics: Metrics;
      mailer?: Mailer | undefined;
      resolve?: Resolver | undefined;
    };
  }
}

/** Secrets never reach the logs (issue 7): cookies, auth headers, passwords, keys. */
export const LOG_REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  'api_key',
  '*.api_key',
  // Webhook signing secrets (decision 0038): in an answer body only, but never in a log line.
  'secret',
  '*.secret',
  '*.*.secret',
];

/** Builds the app without listening, so tests call it with `inject` (fastify/demo). */
export async function buildApp({
  config,
  database,
  clock = systemClock,
  logger,
  mailer,
  resolve,
  state = new AppState(),
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Redaction applies to any logger options given, including a test's capturing stream.
    logger:
      logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: LOG_REDACT,
            ...(typeof logger === 'object' ? logger : {}),
          },
    trustProxy: config.TRUST_PROXY,
    // The client's own X-Request-Id when well formed, else a new UUID (plugins/request-id.ts).
    genReqId,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Raw HTTP that Node cannot parse gets the error envelope with a code (issue 14).
    clientErrorHandler: handleClientError,
    // A URL the router cannot decode gets the error envelope too, not Fastify's own body.
    frameworkErrors: (error, request, reply) => {
      setRequestIdHeader(request, reply);
      setBareSecurityHeaders(request, reply, config.TRUST_PROXY);
      return sendError(reply, toEnvelope(error, request));
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('deps', {
    config,
    database,
    clock,
    state,
    metrics: createMetrics(
      () => database.poolStats(),
      () => database.readPoolStats(),
    ),
    mailer,
    resolve,
  });
  // A check without its own message key still answers one (`v.*`), rendered in the caller's
  // language, never zod's English (decision 0026).
  z.config({ customError: validationErrorMap });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // First, so that every answer has its id, even one refused by the hooks after it.
  await app.register(requestIdPlugin);
  await app.register(errorsPlugin);
  await app.register(inputGuardsPlugin);
  // Graceful shutdown: readiness, refusing new work, counting what is in flight (decision 0019).
  await app.register(lifecyclePlugin);
  await app.register(cookie);
  // Before any route, so every route (docs and static files too) gets their hooks.
  await app.register(securityHeadersPlugin);
  // Before any route, so its duration hook times them all.
  await app.register(metricsPlugin);
  // Before the static files (its hook must see them): JSON and CSV answers above 1 KiB go out
  // brotli (a fast quality: these are made per request) or gzip; the built web app is
  // compressed once at build time and served as its .br/.gz twin (decision 0018).
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    globalDecompression: false,
  });
  await app.register(authPlugin, {
    sessions: {
      readToken: readSessionCookie,
      resolve: resolveSession,
      csrfHeader: XSRF_HEADER,
      csrfMatches: csrfTokenMatches,
    },
  });
  await app.register(mfaGatePlugin);
  await app.register(swagger, swaggerOptions());
  // The UI loads only its own external scripts, so the site-wide CSP fits it unchanged;
  // the validator badge (an image from validator.swagger.io) is turned off.
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { validatorUrl: null } });

  await app.register(healthRoutes);
  // API modules register here, each under /api/v1.
  await app.register(iamRoutes, { prefix: '/api/v1/iam' });
  await app.register(mfaRoutes, { prefix: '/api/v1/iam/mfa' });
  await app.register(mfaAdminRoutes, { prefix: '/api/v1/users' });
  await app.register(terminalAuthPlugin);
  await app.register(companiesRoutes, { prefix: '/api/v1/companies' });
  // Employee CSV import (issue 4): its static paths sit beside the employees' /:id routes.
  await app.register(employeeImportRoutes, { prefix: '/api/v1/employees/import' });
  await app.register(employeesRoutes, { prefix: '/api/v1/employees' });
  await app.register(selfServiceRoutes, { prefix: '/api/v1' });
  await app.register(merchantsRoutes, { prefix: '/api/v1/merchants' });
  await app.register(terminalsRoutes, { prefix: '/api/v1/terminals' });
  await app.register(rewardImportRoutes, { prefix: '/api/v1/tokens/topup-token/employees' });
  await app.register(tokensRoutes, { prefix: '/api/v1/tokens' });
  await app.register(ordersRoutes, { prefix: '/api/v1/orders' });
  await app.register(declinesRoutes, { prefix: '/api/v1/orders' });
  await app.register(companySpendingRulesRoutes, { prefix: '/api/v1/companies' });
  await app.register(employeeSpendingExceptionRoutes, { prefix: '/api/v1/employees' });
  await app.register(holidaysRoutes, { prefix: '/api/v1/sys' });
  // Pay devices and their codes (DESIGN 8, decision 0078).
  await app.register(ownPayDevicesRoutes, { prefix: '/api/v1/me' });
  await app.register(employeePayDevicesRoutes, { prefix: '/api/v1/employees' });
  // The till (DESIGN 8): the merchant roles' point of sale, signed in.
  await app.register(tillRoutes, { prefix: '/api/v1/till' });
  await app.register(jobsRoutes, { prefix: '/api/v1/jobs' });
  // User management, company admins, the audit log and system periods (issue 4).
  await app.register(usersRoutes, { prefix: '/api/v1' });
  // Sign-in protection (issue 14): an administrator clears a user's sign-in throttle.
  await app.register(signInThrottleRoutes, { prefix: '/api/v1/users' });
  await app.register(companyAdminsRoutes, { prefix: '/api/v1/companies/admin' });
  await app.register(invitationsRoutes, { prefix: '/api/v1' });
  await app.register(auditRoutes, { prefix: '/api/v1/audit-log' });
  await app.register(systemRoutes, { prefix: '/api/v1/sys' });
  await app.register(ssoRoutes, { prefix: '/api/v1' });
  await app.register(approvalPolicyRoutes, { prefix: '/api/v1/sys' });
  await app.register(approvalsRoutes, { prefix: '/api/v1/approvals' });
  // Reporting (issue 4): order history, dashboard, summary reports, CSV exports.
  await app.register(orderHistoryRoutes, { prefix: '/api/v1/orders/admin' });
  await app.register(dashboardRoutes, { prefix: '/api/v1/dashboard' });
  await app.register(reportsRoutes, { prefix: '/api/v1/reports' });
  await app.register(exportsRoutes, { prefix: '/api/v1/exports' });
  await app.register(webhooksRoutes, { prefix: '/api/v1/webhooks' });
  await app.register(settlementsRoutes, { prefix: '/api/v1/settlements' });
  // SCIM 2.0 provisioning (DESIGN 9, decision 0087): the tokens in the back office, the protocol
  // at /scim/v2 with its own bearer tokens, errors and not-found answers.
  await app.register(scimTokensRoutes, { prefix: '/api/v1/companies' });
  await app.register(scimRoutes, { prefix: '/scim/v2' });

  const webIndex = path.join(config.WEB_DIST_DIR, 'index.html');
  const serveWeb = config.SERVE_WEB && fs.existsSync(webIndex);
  const webPage = webPageChooser(config.WEB_DIST_DIR);
  const hasDashboardPage = fs.existsSync(path.join(config.WEB_DIST_DIR, DASHBOARD_PAGE));
  const renderDashboard =
    serveWeb && hasDashboardPage && config.WEB_SERVER_RENDER
      ? dashboardRenderer(app, {
          modulePath: path.join(config.WEB_DIST_DIR, '.server', 'prerender.mjs'),
          distDir: config.WEB_DIST_DIR,
          page: DASHBOARD_PAGE,
        })
      : undefined;
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: config.WEB_DIST_DIR,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) =>
        reply.header('cache-control', webCacheControl(config.WEB_DIST_DIR, filePath)),
    });
  }

  /** A client route's page: index.html, or the one the route, language and session call for. */
  const sendWebPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathOnly = request.url.split('?')[0] ?? request.url;
    let page = webPage(pathOnly, request.cookies?.lang);
    // /login's page depends on the language cookie, /dashboard's on the session.
    const route = pathOnly.replace(/\/+$/, '') || '/';
    if (page.startsWith('login.')) reply.header('vary', 'Cookie');
    // Drawn for the session and for a phone or a wide screen (decision 0051).
    if (route === '/dashboard') reply.header('vary', 'Cookie, Sec-CH-UA-Mobile, User-Agent');
    const viewer = page === 'index.html' ? await dashboardViewer(app, request, route) : undefined;
    if (viewer) {
      // Drawn here with its figures (decision 0050): this user's, so kept by no cache.
      const rendered = await renderDashboard?.(request, viewer);
      if (rendered !== undefined) {
        return reply
          .header('cache-control', 'private, no-store')
          .type('text/html; charset=utf-8')
          .send(rendered);
      }
      // Else its figures are preloaded (decision 0044) and its route's chunks (decision 0049).
      reply.header('link', dashboardPreloadLink(request));
      if (hasDashboardPage) page = DASHBOARD_PAGE;
    }
    return reply.type('text/html; charset=utf-8').sendFile(page);
  };
  if (serveWeb) {
    // A route of its own (with or without its trailing slash), not the fallback below, so that
    // @fastify/compress (which hooks routes only) compresses the page rendered for it; the built
    // files come with their twins.
    app.get('/dashboard', { schema: { hide: true } }, sendWebPage);
  }

  // Unknown /api paths answer JSON; other GETs fall back to the SPA so client routes load.
  app.setNotFoundHandler(async (request, reply) => {
    const pathOnly = request.url.split('?')[0];
    const isApi =
      request.url.startsWith('/api') ||
      request.url === '/healthz' ||
      request.url === '/readyz' ||
      pathOnly === METRICS_PATH;
    if (serveWeb && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return sendWebPage(request, reply);
    }
    return sendError(reply, toEnvelope(new AppError('ROUTE_NOT_FOUND'), request));
  });

  return app;
}

/** index.html with the dashboard route's chunks preloaded, made by the web build (decision 0049). */
const DASHBOARD_PAGE = 'dashboard.html';

/** The till's page, made by the web build's own till build (apps/web/vite.config.ts). */
const TILL_PAGE = 'till.html';

/**
 * The page of a client route (decision 0037): /login's is the sign-in page already rendered in
 * the `lang` cookie's language (as the web app reads it: `zh`, else English); /till's the till's
 * own page (DESIGN 8: its own entry, without the back office's shell); every other route's
 * index.html. A build without those pages gets index.html for all.
 */
export function webPageChooser(root: string): (pathname: string, lang?: string) => string {
  const has = (file: string) => fs.existsSync(path.join(root, file));
  const login = { en: has('login.en.html'), zh: has('login.zh.html') };
  const till = has(TILL_PAGE);
  return (pathname, lang) => {
    const route = pathname.replace(/\/+$/, '') || '/';
    if (route === '/login') {
      const language = lang === 'zh' ? 'zh' : 'en';
      return login[language] ? `login.${language}.html` : 'index.html';
    }
    if (route === '/till' && till) return TILL_PAGE;
    return 'index.html';
  };
}

/** The page every client route loads: always revalidated, so a deployment is seen at once. */
export const WEB_INDEX_CACHE_CONTROL = 'no-cache';

/**
 * Vite names every file under assets/ after its content's hash, so a browser may keep it for a
 * year without asking again; anything else (index.html, locales, icons) is revalidated each time.
 */
export function webCacheControl(root: string, filePath: string): string {
  const relative = path.relative(root, filePath).split(path.sep).join('/');
  return /^assets\/[^/]+$/.test(relative)
    ? 'public, max-age=31536000, immutable'
    : WEB_INDEX_CACHE_CONTROL;
}
