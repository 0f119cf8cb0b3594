import type { FastifyInstance, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { can, type Permission } from '@app/contract';
import { assertRecentAuthentication } from '../lib/step-up';
import { AppError } from '../lib/app-error';
import type { Config } from '../config';
import type { Executor } from '../db/client';
import type { Clock } from '../lib/clock';
import type { AuthUser } from '../lib/principal';

/**
 * How the hook finds a request's cookie session: iam's functions, handed in by app.ts, so this
 * plugin imports no module while every module's routes import its guards (decision 0075).
 */
export interface CookieSessions {
  /** The session token the request's cookie carries. */
  readToken(request: FastifyRequest): string | undefined;
  /** The live session of a token, or null. */
  resolve(
    executor: Executor,
    token: string | undefined,
    clock: Clock,
    config: Config,
  ): Promise<{ idHash: string; csrfToken: string; user: AuthUser } | null>;
  /** The header a write presents its CSRF token in. */
  csrfHeader: string;
  /** Whether the presented CSRF token is the session's. */
  csrfMatches(presented: string | undefined, csrfToken: string): boolean;
}

/** The access rule of one registered /api/v1 route, as the deny-by-default hook saw it. */
export interface RouteAccessRule {
  method: string;
  url: string;
  permission: Permission | null;
  public: boolean;
  terminal: boolean;
  /** The route's contract schemas (zod), for the fuzz and mass-assignment tests. */
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api/v1 route's access rule, for the role × endpoint matrix test. */
    accessRules: RouteAccessRule[];
  }
  interface FastifyRequest {
    /** Null when the request carries no live session. */
    user: AuthUser | null;
    /** The cookie session behind `user`; used for CSRF and logout. */
    authSession: { idHash: string; csrfToken: string } | null;
  }
  interface FastifyContextConfig {
    /** Open to anyone: every /api/v1 route says this or uses requirePermission. */
    public?: boolean;
    /** Terminal API-key routes authenticate themselves; no cookie session, no CSRF. */
    auth?: 'terminal';
    /** `false` exempts a cookie route from the CSRF check (sign-in only). */
    csrf?: boolean;
    /** Filled in from requirePermission when the route registers. */
    permission?: Permission;
  }
}

const GUARD = Symbol.for('app.requirePermission');
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Only the JSON API carries sessions; static files and docs cost no database round trip. */
const API_PREFIX = '/api/v1';

type Guard = ((request: FastifyRequest) => Promise<void>) & { [GUARD]: Permission };

function assertAllowed(request: FastifyRequest, permission: Permission): void {
  if (!request.user) throw new AppError('UNAUTHORIZED');
  if (!can(request.user.type, permission)) throw new AppError('PERMISSION_DENIED');
}

/**
 * The access rule of a route, declared beside it:
 * `{ preHandler: requirePermission('tokens.issue_company') }`.
 * No session → 401 UNAUTHORIZED; a role the contract's PERMISSIONS does not list → 403.
 * The auth hook also applies it before the body is parsed, so an anonymous caller never
 * learns the shape of a request it may not make.
 */
export function requirePermission(permission: Permission): Guard {
  const guard = async (request: FastifyRequest) => assertAllowed(request, permission);
  return Object.assign(guard, { [GUARD]: permission });
}

function guardOf(hooks: unknown): Permission | undefined {
  const list = Array.isArray(hooks) ? hooks : [hooks];
  for (const hook of list) {
    if (typeof hook === 'function' && GUARD in hook) return (hook as Guard)[GUARD];
  }
  return undefined;
}

/** Deny by default: an /api/v1 route with no access rule stops the server from starting. */
export function checkRouteAccessRule(route: RouteOptions): void {
  const permission = guardOf(route.preHandler) ?? guardOf(route.onRequest);
  if (permission) route.config = { ...route.config, permission };
  if (!route.url.startsWith(API_PREFIX)) return;
  if (permission || route.config?.public === true || route.config?.auth === 'terminal') return;
  const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
  throw new Error(
    `${methods} ${route.url} has no access rule: add { preHandler: requirePermission(...) } ` +
      'or { config: { public: true } }',
  );
}

export default fp<{ sessions: CookieSessions }>(
  async function authPlugin(app: FastifyInstance, { sessions }) {
    app.decorateRequest('user', null);
    app.decorateRequest('authSession', null);
    const accessRules: RouteAccessRule[] = [];
    app.decorate('accessRules', accessRules);
    app.addHook('onRoute', (route) => {
      checkRouteAccessRule(route);
      if (!route.url.startsWith(API_PREFIX)) return;
      for (const method of [route.method].flat()) {
        accessRules.push({
          method,
          url: route.url,
          permission: route.config?.permission ?? null,
          public: route.config?.public === true,
          terminal: route.config?.auth === 'terminal',
          schema: route.schema,
        });
      }
    });

    app.addHook('onRequest', async (request) => {
      const { config, url } = request.routeOptions;
      if (!url?.startsWith(API_PREFIX) || config.auth === 'terminal') return;

      const token = sessions.readToken(request);
      if (token) {
        const { database, clock, config: appConfig } = app.deps;
        const session = await sessions.resolve(database.db, token, clock, appConfig);
        if (session) {
          request.user = session.user;
          request.authSession = { idHash: session.idHash, csrfToken: session.csrfToken };
        }
      }

      if (config.permission && !request.user) throw new AppError('UNAUTHORIZED');
      // Session-bound token (0003): the header must be this session's token, derived from it.
      if (request.authSession && UNSAFE_METHODS.has(request.method) && config.csrf !== false) {
        const header = request.headers[sessions.csrfHeader];
        const presented = typeof header === 'string' ? header : undefined;
        if (!sessions.csrfMatches(presented, request.authSession.csrfToken)) {
          throw new AppError('CSRF_INVALID');
        }
      }
      if (config.permission) assertAllowed(request, config.permission);
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);

/**
 * A route's second preHandler, after its permission: the caller signed in or proved who it is
 * again within the last STEP_UP_WINDOW_SECONDS (lib/step-up.ts, DESIGN 9).
 */
export async function requireRecentSignIn(request: FastifyRequest): Promise<void> {
  const { clock, config } = request.server.deps;
  assertRecentAuthentication(currentUser(request), clock.now(), config);
}

/** The signed-in user of a guarded route (throws 401 if a route forgot its guard). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('UNAUTHORIZED');
  return request.user;
}
