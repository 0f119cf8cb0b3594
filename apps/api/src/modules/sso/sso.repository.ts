// OIDC sign-in's tables (migration 0039, decision 0086): the identity providers and their email
// domains, the sign-ins sent to a provider and not back yet, and the accounts each provider's
// subjects signed in as.
import { sql } from 'drizzle-orm';
import type { IdentityProvider, IdentityProviderUserType } from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import { iso, toInt, toIntOrNull } from '../../lib/numbers';

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

interface ProviderRow {
  id: unknown;
  name: string;
  issuer: string;
  client_id: string;
  client_secret_encrypted: string;
  company_id: unknown;
  default_type: string;
  created_at: Date | string;
  updated_at: Date | string;
  email_domains: string[] | null;
}

/** A provider as stored: the API's view plus its sealed secret. */
export interface ProviderRecord extends IdentityProvider {
  clientSecretEncrypted: string;
}

const toProvider = (row: ProviderRow): ProviderRecord => ({
  id: toInt(row.id),
  name: row.name,
  issuer: row.issuer,
  client_id: row.client_id,
  client_secret_set: row.client_secret_encrypted !== '',
  email_domains: [...(row.email_domains ?? [])].sort(),
  company_id: toIntOrNull(row.company_id),
  default_type: row.default_type as IdentityProviderUserType,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  clientSecretEncrypted: row.client_secret_encrypted,
});

const PROVIDER_SELECT = sql`
  SELECT p.*, (SELECT array_agg(d.domain ORDER BY d.domain) FROM identity_provider_domains d
                WHERE d.provider_id = p.id) AS email_domains
    FROM identity_providers p`;

/** Every provider, by name. */
export async function findProviders(executor: Executor): Promise<ProviderRecord[]> {
  const rows = await queryRows<ProviderRow>(
    executor,
    sql`${PROVIDER_SELECT} ORDER BY p.name, p.id`,
  );
  return rows.map(toProvider);
}

/** Every provider, locked for the rest of the transaction (PUT replaces the list). */
export async function findProvidersForUpdate(executor: Executor): Promise<ProviderRecord[]> {
  await queryRows(executor, sql`SELECT id FROM identity_providers ORDER BY id FOR UPDATE`);
  return findProviders(executor);
}

export async function lookupProvider(
  executor: Executor,
  id: number,
): Promise<ProviderRecord | null> {
  const [row] = await queryRows<ProviderRow>(executor, sql`${PROVIDER_SELECT} WHERE p.id = ${id}`);
  return row ? toProvider(row) : null;
}

/** The provider an email domain belongs to, if any. */
export async function lookupProviderByDomain(
  executor: Executor,
  domain: string,
): Promise<{ id: number; name: string } | null> {
  const [row] = await queryRows<{ id: unknown; name: string }>(
    executor,
    sql`SELECT p.id, p.name FROM identity_provider_domains d
          JOIN identity_providers p ON p.id = d.provider_id
         WHERE d.domain = ${domain}`,
  );
  return row ? { id: toInt(row.id), name: row.name } : null;
}

export interface ProviderWrite {
  name: string;
  issuer: string;
  clientId: string;
  clientSecretEncrypted: string;
  companyId: number | null;
  defaultType: IdentityProviderUserType;
}

export async function insertProvider(
  executor: Executor,
  input: ProviderWrite,
  now: Date,
): Promise<number> {
  const [row] = await queryRows<{ id: unknown }>(
    executor,
    sql`INSERT INTO identity_providers (name, issuer, client_id, client_secret_encrypted,
                                        company_id, default_type, created_at, updated_at)
        VALUES (${input.name}, ${input.issuer}, ${input.clientId}, ${input.clientSecretEncrypted},
                ${input.companyId}, ${input.defaultType}, ${at(now)}, ${at(now)})
        RETURNING id`,
  );
  return toInt(row!.id);
}

export async function updateProvider(
  executor: Executor,
  id: number,
  input: ProviderWrite,
  now: Date,
): Promise<void> {
  await executor.execute(
    sql`UPDATE identity_providers
           SET name = ${input.name}, issuer = ${input.issuer}, client_id = ${input.clientId},
               client_secret_encrypted = ${input.clientSecretEncrypted},
               company_id = ${input.companyId}, default_type = ${input.defaultType},
               updated_at = ${at(now)}
         WHERE id = ${id}`,
  );
}

export async function deleteProvider(executor: Executor, id: number): Promise<void> {
  await executor.execute(sql`DELETE FROM identity_providers WHERE id = ${id}`);
}

/** Every provider's domains replaced (after the providers are written). */
export async function replaceDomains(
  executor: Executor,
  domains: { providerId: number; domain: string }[],
): Promise<void> {
  await executor.execute(sql`DELETE FROM identity_provider_domains`);
  for (const { providerId, domain } of domains) {
    await executor.execute(
      sql`INSERT INTO identity_provider_domains (domain, provider_id) VALUES (${domain}, ${providerId})`,
    );
  }
}

export interface PendingSignIn {
  stateHash: string;
  providerId: number;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  returnTo: string;
}

/** A sign-in sent to its provider; dead ones go as a new one is written. */
export async function insertPendingSignIn(
  executor: Executor,
  input: PendingSignIn,
  now: Date,
  expiresAt: Date,
): Promise<void> {
  await executor.execute(
    sql`WITH expired AS (DELETE FROM oidc_sign_ins WHERE expires_at <= ${at(now)})
        INSERT INTO oidc_sign_ins (state_hash, provider_id, code_verifier, nonce, redirect_uri,
                                   return_to, created_at, expires_at)
        VALUES (${input.stateHash}, ${input.providerId}, ${input.codeVerifier}, ${input.nonce},
                ${input.redirectUri}, ${input.returnTo}, ${at(now)}, ${at(expiresAt)})`,
  );
}

/** Takes a pending sign-in (deleted as read, so a state is good once), if alive at `now`. */
export async function takePendingSignIn(
  executor: Executor,
  stateHash: string,
  now: Date,
): Promise<PendingSignIn | null> {
  const [row] = await queryRows<{
    state_hash: string;
    provider_id: unknown;
    code_verifier: string;
    nonce: string;
    redirect_uri: string;
    return_to: string;
    expires_at: Date | string;
  }>(
    executor,
    sql`DELETE FROM oidc_sign_ins WHERE state_hash = ${stateHash}
        RETURNING state_hash, provider_id, code_verifier, nonce, redirect_uri, return_to, expires_at`,
  );
  if (!row || new Date(iso(row.expires_at)).getTime() <= now.getTime()) return null;
  return {
    stateHash: row.state_hash,
    providerId: toInt(row.provider_id),
    codeVerifier: row.code_verifier,
    nonce: row.nonce,
    redirectUri: row.redirect_uri,
    returnTo: row.return_to,
  };
}

/** The account a provider's subject signed in as before, if any. */
export async function lookupIdentityUserId(
  executor: Executor,
  providerId: number,
  subject: string,
): Promise<number | null> {
  const [row] = await queryRows<{ user_id: unknown }>(
    executor,
    sql`SELECT user_id FROM user_identities
         WHERE provider_id = ${providerId} AND subject = ${subject}`,
  );
  return row ? toInt(row.user_id) : null;
}

/** Records (or refreshes) that a provider's subject signed in as a user. */
export async function upsertIdentity(
  executor: Executor,
  input: { providerId: number; subject: string; userId: number },
  now: Date,
): Promise<void> {
  await executor.execute(
    sql`INSERT INTO user_identities (provider_id, subject, user_id, created_at, last_sign_in_at)
        VALUES (${input.providerId}, ${input.subject}, ${input.userId}, ${at(now)}, ${at(now)})
        ON CONFLICT (provider_id, subject)
        DO UPDATE SET user_id = EXCLUDED.user_id, last_sign_in_at = EXCLUDED.last_sign_in_at`,
  );
}
