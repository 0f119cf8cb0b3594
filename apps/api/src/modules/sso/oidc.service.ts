// OIDC sign-in for back-office users (DESIGN 9, issue 45 item 1, decision 0086): the
// authorization code flow with PKCE, state and nonce, by `openid-client`, which checks the ID
// token (issuer, audience, expiry, nonce, signature from the provider's JWKS). No JWT or JWKS code
// of ours.
import crypto from 'node:crypto';
import * as client from 'openid-client';
import {
  isLoopbackHost,
  sameSiteReturnPath,
  SECOND_FACTOR_AMR,
  USERNAME_MAX,
  USERNAME_MIN,
} from '@app/contract';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { stateSlot } from '../../lib/app-state';
import { recordAudit, type AuditRecord } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import { lookupCompany } from '../companies';
import {
  beginMfaChallenge,
  createUserAccount,
  hasTotpEnabled,
  hashToken,
  isUsernameTaken,
  lookupUserByEmail,
  lookupUserById,
  openSession,
  requireMfaKeyring,
  type UserRow,
} from '../iam';
import {
  insertPendingSignIn,
  lookupIdentityUserId,
  lookupProvider,
  takePendingSignIn,
  upsertIdentity,
  type ProviderRecord,
} from './sso.repository';

/** A sign-in sent to its provider must come back within this long. */
export const OIDC_SIGN_IN_TTL_MS = 10 * 60_000;
/** A provider's discovery document (and with it its JWKS cache) is kept this long. */
const DISCOVERY_TTL_MS = 10 * 60_000;
/** What a sign-in asks the provider for. */
export const OIDC_SCOPES = 'openid email profile';
/** The callback's path, the redirect URI to register at the provider (behind the site's origin). */
export const OIDC_CALLBACK_PATH = '/api/v1/iam/oidc/callback';

interface HeldConfiguration {
  key: string;
  at: number;
  configuration: Promise<client.Configuration>;
}

/** The providers' discovered configurations, per app, by provider id. */
export const OIDC_CONFIGURATIONS = stateSlot<Map<number, HeldConfiguration>>('oidc configurations');

/** The provider's configuration (its discovery document, its client), discovered once a while. */
async function configurationOf(
  deps: ServiceDeps,
  provider: ProviderRecord,
): Promise<client.Configuration> {
  const cache = deps.state.of(OIDC_CONFIGURATIONS, () => new Map());
  const key = `${provider.updated_at}|${provider.issuer}|${provider.client_id}`;
  const now = deps.clock.now().getTime();
  const held = cache.get(provider.id);
  if (held && held.key === key && now - held.at < DISCOVERY_TTL_MS) return held.configuration;
  const keyring = await requireMfaKeyring(deps);
  const secret = keyring.decrypt(provider.clientSecretEncrypted);
  const issuer = new URL(provider.issuer);
  // Plain http only to this machine (a local provider, the tests'): the contract refuses others.
  const insecure = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname);
  const configuration = client.discovery(
    issuer,
    provider.client_id,
    { client_secret: secret },
    client.ClientSecretBasic(),
    { execute: insecure ? [client.allowInsecureRequests] : [], timeout: 10 },
  );
  // A failed discovery is tried again next time, not remembered.
  configuration.catch(() => {
    if (cache.get(provider.id)?.configuration === configuration) cache.delete(provider.id);
  });
  cache.set(provider.id, { key, at: now, configuration });
  return configuration;
}

async function reachableConfigurationOf(deps: ServiceDeps, provider: ProviderRecord) {
  try {
    return await configurationOf(deps, provider);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('IDENTITY_PROVIDER_UNAVAILABLE', { cause: error });
  }
}

export interface StartInput {
  providerId: number;
  from: string | undefined;
  /** The typed email, passed on so the provider's page starts with it. */
  loginHint?: string | undefined;
  /** `<origin>/api/v1/iam/oidc/callback`, as the browser reached this site. */
  redirectUri: string;
}

/**
 * Starts a sign-in: a pending row (state hashed, PKCE verifier, nonce, where to go back) and the
 * provider's authorization URL. The browser keeps `state` in a cookie for the callback.
 */
export async function startOidcSignIn(
  deps: ServiceDeps,
  input: StartInput,
): Promise<{ url: string; state: string }> {
  const provider = await lookupProvider(deps.database.db, input.providerId);
  if (!provider) throw new AppError('RECORD_NOT_FOUND');
  const configuration = await reachableConfigurationOf(deps, provider);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const now = deps.clock.now();
  await insertPendingSignIn(
    deps.database.db,
    {
      stateHash: hashToken(state),
      providerId: provider.id,
      codeVerifier,
      nonce,
      redirectUri: input.redirectUri,
      returnTo: sameSiteReturnPath(input.from),
    },
    now,
    new Date(now.getTime() + OIDC_SIGN_IN_TTL_MS),
  );
  const parameters: Record<string, string> = {
    redirect_uri: input.redirectUri,
    scope: OIDC_SCOPES,
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  };
  const hint = input.loginHint?.trim();
  if (hint && hint.length <= 254) parameters.login_hint = hint;
  return { url: client.buildAuthorizationUrl(configuration, parameters).href, state };
}

export interface CallbackInput {
  /** The callback's query string as received (without `?`). */
  query: string;
  /** The state the starting browser keeps in its cookie. */
  stateCookie: string | undefined;
  ip: string | null;
  userAgent: string | null;
  previousToken?: string | undefined;
}

export type CallbackResult =
  | { kind: 'signed_in'; session: { token: string; csrfToken: string }; returnTo: string }
  | { kind: 'second_step'; challenge: string; returnTo: string };

/** The same string, in constant time. */
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

/** Did the provider check a second factor (RFC 8176 `amr` values; decision 0086)? */
export function secondFactorAtProvider(amr: unknown): boolean {
  if (!Array.isArray(amr)) return false;
  return amr.some((value) => (SECOND_FACTOR_AMR as readonly unknown[]).includes(value));
}

/**
 * What openid-client said when it refused the provider's answer: its code, its innermost message
 * and the ID token claim it refused (`aud`, `exp`, `nonce`, …), never the token itself.
 */
function whyRefused(error: unknown): {
  error: string;
  detail: string | null;
  claim: string | null;
} {
  type Link = { code?: unknown; message?: unknown; cause?: unknown; claim?: unknown };
  const top = error as Link;
  let detail: string | null = null;
  let claim: string | null = null;
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const link = current as Link;
    if (typeof link.message === 'string') detail = link.message.slice(0, 200);
    if (typeof link.claim === 'string') claim = link.claim;
    current = link.cause;
  }
  return { error: typeof top.code === 'string' ? top.code : 'unknown', detail, claim };
}

/** A username for an account made at its first sign-in: the email's local part, made unique. */
async function freeUsername(db: Executor, email: string): Promise<string> {
  let base = email
    .split('@')[0]!
    .toLowerCase()
    .replace(/[^a-z0-9_.]+/g, '.')
    .replace(/^\.+|\.+$/g, '')
    .slice(0, USERNAME_MAX);
  if (base.length < USERNAME_MIN)
    base = `${base}${'_'.repeat(USERNAME_MIN)}`.slice(0, USERNAME_MIN);
  for (let n = 1; n <= 20; n += 1) {
    const suffix = n === 1 ? '' : `.${n}`;
    const candidate = `${base.slice(0, USERNAME_MAX - suffix.length)}${suffix}`;
    if (!(await isUsernameTaken(db, candidate))) return candidate;
  }
  return `${base.slice(0, USERNAME_MAX - 7)}.${crypto.randomBytes(3).toString('hex')}`;
}

/** A password nobody knows (as an invitation's account has until its link is used). */
const unknowablePassword = () => `${crypto.randomBytes(18).toString('base64url')}Aa1!`;

/**
 * The provider's answer: the pending sign-in taken (once), the code exchanged and the ID token
 * checked by openid-client, the account found (by subject, then by verified email in one of the
 * provider's domains) or made just in time, then a session, or the second step when the user has
 * TOTP on and the provider did not check a second factor. Every refusal is audited and thrown.
 */
export async function completeOidcSignIn(
  deps: ServiceDeps,
  input: CallbackInput,
): Promise<CallbackResult> {
  const db = deps.database.db;
  const now = deps.clock.now();
  const params = new URLSearchParams(input.query);
  const state = params.get('state');
  const refuse = async (
    code:
      'OIDC_STATE_INVALID' | 'OIDC_SIGN_IN_FAILED' | 'OIDC_ACCOUNT_NOT_ALLOWED' | 'USER_INACTIVE',
    reason: string,
    details: Record<string, unknown> = {},
    userId: number | null = null,
  ): Promise<never> => {
    await recordAudit(db, {
      actor: { userId: null, ip: input.ip },
      action: 'sign_in_failed',
      entityType: 'sign_in',
      entityId: userId,
      after: { method: 'oidc', reason, ...details },
      at: now,
    });
    throw new AppError(code);
  };

  if (!state || !input.stateCookie || !sameText(state, input.stateCookie)) {
    return refuse('OIDC_STATE_INVALID', 'oidc_state_invalid');
  }
  const pending = await takePendingSignIn(db, hashToken(state), now);
  if (!pending) return refuse('OIDC_STATE_INVALID', 'oidc_state_invalid');
  const provider = await lookupProvider(db, pending.providerId);
  if (!provider) return refuse('OIDC_STATE_INVALID', 'oidc_state_invalid');
  const providerFacts = { provider_id: provider.id };
  const providerError = params.get('error');
  if (providerError) {
    return refuse('OIDC_SIGN_IN_FAILED', 'oidc_provider_error', {
      ...providerFacts,
      error: providerError.slice(0, 100),
    });
  }

  const configuration = await reachableConfigurationOf(deps, provider);
  const currentUrl = new URL(pending.redirectUri);
  currentUrl.search = params.toString();
  let claims: client.IDToken;
  try {
    const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims()!;
  } catch (error) {
    return refuse('OIDC_SIGN_IN_FAILED', 'oidc_token_refused', {
      ...providerFacts,
      ...whyRefused(error),
    });
  }

  const subject = claims.sub;
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null;
  const domain = email?.split('@')[1] ?? null;
  // `email_verified` (OIDC core); Entra ID sends none, but its optional claim `xms_edov` says the
  // email's domain is one the tenant verified (decision 0086).
  const emailVerified = claims.email_verified === true || claims.xms_edov === true;
  const emailUsable =
    email !== null && emailVerified && domain !== null && provider.email_domains.includes(domain);
  const secondFactor = secondFactorAtProvider(claims.amr);

  type Refusal = {
    kind: 'refused';
    code: 'OIDC_SIGN_IN_FAILED' | 'OIDC_ACCOUNT_NOT_ALLOWED' | 'USER_INACTIVE';
    reason: string;
    details: Record<string, unknown>;
    userId: number | null;
  };
  const refusal = (
    code: Refusal['code'],
    reason: string,
    details: Record<string, unknown>,
    userId: number | null = null,
  ): Refusal => ({ kind: 'refused', code, reason, details, userId });

  // Audited after the transaction, which a refusal rolls back (an account made for it included).
  const result = await db.transaction(async (tx): Promise<CallbackResult | Refusal> => {
    let user: UserRow | null = null;
    const linkedId = await lookupIdentityUserId(tx, provider.id, subject);
    if (linkedId !== null) user = await lookupUserById(tx, linkedId);
    let created = false;
    if (!user) {
      if (!emailUsable) {
        return refusal('OIDC_ACCOUNT_NOT_ALLOWED', 'oidc_email_not_usable', {
          ...providerFacts,
          email,
          email_verified: emailVerified,
        });
      }
      user = await lookupUserByEmail(tx, email);
      if (!user) {
        if (
          provider.company_id !== null &&
          !(await lookupCompany(tx, { kind: 'all' }, provider.company_id))
        ) {
          return refusal('OIDC_ACCOUNT_NOT_ALLOWED', 'oidc_company_missing', providerFacts);
        }
        const account = await createUserAccount(tx, {
          username: await freeUsername(tx, email),
          email,
          password: unknowablePassword(),
          type: provider.default_type,
          companyId: provider.company_id,
        });
        created = true;
        await recordAudit(tx, {
          actor: { userId: null, ip: input.ip },
          action: 'create',
          entityType: 'user',
          entityId: account.id,
          after: {
            user_id: account.id,
            username: account.username,
            email: account.email,
            type: account.type,
            company_id: account.companyId,
            status: account.status,
            source: 'oidc',
            ...providerFacts,
          },
          at: now,
        });
        user = await lookupUserById(tx, account.id);
      }
    }
    if (!user) return refusal('OIDC_SIGN_IN_FAILED', 'oidc_account_missing', providerFacts);
    const found = user;
    if (provider.company_id !== null && found.companyId !== provider.company_id) {
      return refusal('OIDC_ACCOUNT_NOT_ALLOWED', 'oidc_other_company', providerFacts, found.id);
    }
    if (found.status !== 'active') {
      return refusal('USER_INACTIVE', 'user_inactive', providerFacts, found.id);
    }
    await upsertIdentity(tx, { providerId: provider.id, subject, userId: found.id }, now);
    const facts = {
      username: found.username,
      method: 'oidc',
      ...providerFacts,
      second_factor_at_provider: secondFactor,
      ...(created && { created: true }),
    };
    const signedInAs = (action: string): AuditRecord => ({
      actor: { userId: found.id, ip: input.ip },
      action,
      entityType: 'sign_in',
      entityId: found.id,
      after: facts,
      at: now,
    });
    // The two-factor rule holds unless the provider checked a second factor (decision 0086).
    if (!secondFactor && (await hasTotpEnabled(tx, found.id))) {
      const challenge = await beginMfaChallenge(tx, {
        userId: found.id,
        login: found.username,
        now,
        ip: input.ip,
        userAgent: input.userAgent,
      });
      await recordAudit(tx, signedInAs('sign_in_mfa_required'));
      return { kind: 'second_step', challenge, returnTo: pending.returnTo };
    }
    const session = await openSession(
      tx,
      {
        userId: found.id,
        now,
        ip: input.ip,
        userAgent: input.userAgent,
        previousToken: input.previousToken,
        audit: signedInAs('sign_in'),
        secondFactorAtProvider: secondFactor,
      },
      deps.config,
    );
    return { kind: 'signed_in', session, returnTo: pending.returnTo };
  });
  if (result.kind === 'refused') {
    return refuse(result.code, result.reason, result.details, result.userId);
  }
  return result;
}
