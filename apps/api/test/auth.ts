// Test helpers for signed-in requests: a user factory, sign-in, and inject with the session.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Role, SelfUser, Status } from '@app/contract';
import type { Executor } from '../src/db/client';
import { insertUser, toAuthUser } from '../src/modules/iam';
import { hashPassword } from '../src/modules/iam';
import type { AuthUser } from '../src/lib/principal';
import { sessionFromCookies } from './http-session';
import { idempotencyHeaders } from './idempotency';

export const DEFAULT_PASSWORD = 'Passw0rd!';

// argon2id is deliberately slow; tests reuse one hash per distinct password.
const hashes = new Map<string, Promise<string>>();
const cachedHash = (password: string) => {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    hashes.set(password, hashed);
  }
  return hashed;
};

let sequence = 0;

export interface CreateUserOptions {
  type: Role;
  username?: string;
  email?: string | null;
  password?: string;
  status?: Status;
  companyId?: number | null;
  merchantId?: number | null;
  employeeId?: string | null;
}

export type TestUser = AuthUser & { password: string };

const COMPANY_ROLES: Role[] = ['company_admin', 'company_employee'];
const MERCHANT_ROLES: Role[] = ['merchant_admin', 'merchant_supervisor', 'merchant_staff'];

/**
 * Inserts a user straight into the database (no password-rule check, so tests can also make
 * odd ones). Company roles need `companyId`, merchant roles `merchantId`; employees get a
 * staff number unless given one.
 */
export async function createUser(
  executor: Executor,
  options: CreateUserOptions,
): Promise<TestUser> {
  sequence += 1;
  const { type } = options;
  if (COMPANY_ROLES.includes(type) && options.companyId == null) {
    throw new Error(`createUser: a ${type} needs companyId`);
  }
  if (MERCHANT_ROLES.includes(type) && options.merchantId == null) {
    throw new Error(`createUser: a ${type} needs merchantId`);
  }
  const username = options.username ?? `${type.replace(/_/g, '.')}.${sequence}`.slice(0, 20);
  const password = options.password ?? DEFAULT_PASSWORD;
  const row = await insertUser(executor, {
    username,
    email: options.email === undefined ? `${username}@test.example` : options.email,
    passwordHash: await cachedHash(password),
    type,
    status: options.status ?? 'active',
    companyId: options.companyId ?? null,
    merchantId: options.merchantId ?? null,
    employeeId:
      options.employeeId ??
      (type === 'company_employee' ? `E${String(sequence).padStart(4, '0')}` : null),
  });
  return { ...toAuthUser(row), password };
}

export interface TestSession {
  /** Cookie header value carrying the session and XSRF-TOKEN cookies. */
  cookie: string;
  /** The CSRF token, to send as X-XSRF-TOKEN. */
  xsrf: string;
  user: SelfUser;
  /** The raw session cookie (name and value). */
  sessionCookie: { name: string; value: string };
}

/** Signs in through the API and returns what a browser would hold; throws on any refusal. */
export async function signIn(
  app: FastifyInstance,
  username: string,
  password: string = DEFAULT_PASSWORD,
  headers: Record<string, string> = {},
): Promise<TestSession> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/iam/login',
    headers,
    payload: { username, password },
  });
  if (res.statusCode !== 200) {
    throw new Error(`signIn(${username}) answered ${res.statusCode}: ${res.body}`);
  }
  const setCookie = res.headers['set-cookie'] ?? [];
  const { cookie, xsrf } = sessionFromCookies(Array.isArray(setCookie) ? setCookie : [setCookie]);
  const session = res.cookies.find((c) => c.name === 'sid' || c.name === '__Host-sid')!;
  return {
    cookie,
    xsrf,
    user: res.json().data.user as SelfUser,
    sessionCookie: { name: session.name, value: session.value },
  };
}

/** `app.inject` as the signed-in session: its cookies and the X-XSRF-TOKEN header. */
/** One session's verbs on an app: `requestsAs(app, session).post(url, body)`. */
export function requestsAs(app: FastifyInstance, session: Pick<TestSession, 'cookie' | 'xsrf'>) {
  return {
    get: (url: string) => injectAs(app, session, { method: 'GET', url }),
    post: (url: string, payload: object) =>
      injectAs(app, session, { method: 'POST', url, payload }),
    put: (url: string, payload: object) => injectAs(app, session, { method: 'PUT', url, payload }),
    patch: (url: string, payload: object) =>
      injectAs(app, session, { method: 'PATCH', url, payload }),
    delete: (url: string) => injectAs(app, session, { method: 'DELETE', url }),
  };
}

export function injectAs(
  app: FastifyInstance,
  session: Pick<TestSession, 'cookie' | 'xsrf'>,
  options: InjectOptions,
): Promise<LightMyRequestResponse> {
  const url = typeof options.url === 'string' ? options.url : '';
  return app.inject({
    ...options,
    headers: {
      cookie: session.cookie,
      'x-xsrf-token': session.xsrf,
      ...idempotencyHeaders(options.method, url, options.headers),
      ...options.headers,
    },
  });
}
