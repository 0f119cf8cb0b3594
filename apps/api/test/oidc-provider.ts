// A real OpenID provider on loopback for the OIDC sign-in tests (decision 0086): `oidc-provider`
// on 127.0.0.1 at a random port, one confidential client, accounts the test names, and a login
// step that signs in whoever the test says next (with the `amr` it says), without a form.
// `tamper` lets a test change the ID token the token endpoint answers (its audience, expiry or
// nonce), re-signed with the provider's own key, so only that claim is wrong.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import Provider from 'oidc-provider';

export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The accounts it knows, by subject. */
  accounts: Map<string, TestAccount>;
  /** Who signs in at the next login step, and the `amr` the provider reports. */
  next: { sub: string; amr?: string[] };
  /** Changes the next ID tokens' claims (re-signed with the provider's key); null: none. */
  tamper: ((claims: jose.JWTPayload) => jose.JWTPayload) | null;
  close(): Promise<void>;
}

/** Starts the provider; `redirectUris` are the client's registered redirect URIs. */
export async function startTestOidcProvider(redirectUris: string[]): Promise<TestOidcProvider> {
  const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const kid = 'test-signing-key';
  const jwk = { ...(await jose.exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'backoffice';
  const clientSecret = 'a-test-client-secret-of-some-length-0123456789';
  const accounts = new Map<string, TestAccount>();

  const state: TestOidcProvider = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    next: { sub: '' },
    tamper: null,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: ['a-test-cookie-key'] },
    claims: { openid: ['sub', 'amr'], email: ['email', 'email_verified'], profile: ['name'] },
    // The scopes' claims in the ID token itself, as Entra ID, Okta and Google put them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    // Short lives, said so (the defaults log a notice each).
    ttl: { AccessToken: 600, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ ...account }) };
    },
  });
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && state.tamper && body?.id_token) {
      const claims = state.tamper(jose.decodeJwt(body.id_token));
      const idToken = await new jose.SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid })
        .sign(privateKey);
      ctx.body = { ...body, id_token: idToken };
    }
  });

  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        const clientOf = String(details.params.client_id);
        const grant = new provider.Grant({ accountId: state.next.sub, clientId: clientOf });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          {
            login: { accountId: state.next.sub, ...(state.next.amr && { amr: state.next.amr }) },
            consent: { grantId },
          },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        res.statusCode = 500;
        res.end(String(error));
      }
    })();
  });
  return state;
}

/**
 * A browser's trip through the provider: from the authorization URL to the redirect back to the
 * client (its URL with `code`, `state` and `iss`), following the provider's redirects with a
 * cookie jar of its own (a new browser each time, so each trip logs in afresh).
 */
export async function visitProvider(authorizationUrl: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  for (let hop = 0; hop < 10; hop += 1) {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      redirect: 'manual',
      headers: cookie ? { cookie } : {},
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
    await response.arrayBuffer();
    const location = response.headers.get('location');
    if (!location) throw new Error(`the provider answered ${response.status} at ${url.href}`);
    url = new URL(location, url);
    if (url.origin !== origin) return url;
  }
  throw new Error('the provider redirected too often');
}
