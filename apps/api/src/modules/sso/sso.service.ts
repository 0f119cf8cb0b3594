// The identity providers the Super Admin connects (DESIGN 9, decision 0086): the whole list read
// and written at once, each change audited, the client secret write-only and sealed by the MFA
// keyring (AES-256-GCM, the TOTP secrets' protection).
import type { IdentityProvider, IdentityProviderMatch, IdentityProvidersBody } from '@app/contract';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import { lookupCompany } from '../companies';
import { requireMfaKeyring } from '../iam';
import {
  deleteProvider,
  findProviders,
  findProvidersForUpdate,
  insertProvider,
  lookupProviderByDomain,
  replaceDomains,
  updateProvider,
  type ProviderRecord,
} from './sso.repository';

const ENTITY = 'identity_provider';

const view = ({ clientSecretEncrypted: _sealed, ...provider }: ProviderRecord): IdentityProvider =>
  provider;

export async function findIdentityProviders(deps: ServiceDeps): Promise<IdentityProvider[]> {
  return (await findProviders(deps.database.db)).map(view);
}

/**
 * Replaces the list: a provider with `id` is changed (its secret kept unless a new one is sent),
 * one without is added, one left out is removed. An email domain belongs to one provider
 * (EMAIL_DOMAIN_TAKEN); an unknown id or company is RECORD_NOT_FOUND.
 */
export async function putIdentityProviders(
  deps: ServiceDeps,
  actor: AuditActor,
  body: IdentityProvidersBody,
): Promise<IdentityProvider[]> {
  const domains = body.providers.flatMap((provider) => provider.email_domains);
  if (new Set(domains).size !== domains.length) throw new AppError('EMAIL_DOMAIN_TAKEN');
  const ids = body.providers.flatMap((provider) =>
    provider.id === undefined ? [] : [provider.id],
  );
  if (new Set(ids).size !== ids.length) {
    throw new AppError('BODY_INVALID', { metadata: { providers: 'v.invalid' } });
  }
  const keyring = await requireMfaKeyring(deps);
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const existing = new Map((await findProvidersForUpdate(tx)).map((p) => [p.id, p]));
    for (const id of ids) if (!existing.has(id)) throw new AppError('RECORD_NOT_FOUND');
    for (const provider of body.providers) {
      const companyId = provider.company_id ?? null;
      if (companyId !== null && !(await lookupCompany(tx, { kind: 'all' }, companyId))) {
        throw new AppError('RECORD_NOT_FOUND');
      }
    }
    const audit = (action: string, entityId: number, before: unknown, after: unknown) =>
      recordAudit(tx, { actor, action, entityType: ENTITY, entityId, before, after, at: now });

    for (const [id, before] of existing) {
      if (ids.includes(id)) continue;
      await deleteProvider(tx, id);
      await audit('delete', id, view(before), null);
    }
    const written: { id: number; domains: string[] }[] = [];
    for (const provider of body.providers) {
      const before = provider.id === undefined ? undefined : existing.get(provider.id);
      const sealed =
        provider.client_secret !== undefined
          ? keyring.encrypt(provider.client_secret)
          : before!.clientSecretEncrypted;
      const write = {
        name: provider.name,
        issuer: provider.issuer,
        clientId: provider.client_id,
        clientSecretEncrypted: sealed,
        companyId: provider.company_id ?? null,
        defaultType: provider.default_type,
      };
      const after = {
        name: write.name,
        issuer: write.issuer,
        client_id: write.clientId,
        email_domains: [...provider.email_domains].sort(),
        company_id: write.companyId,
        default_type: write.defaultType,
        client_secret_set: true,
        ...(provider.client_secret !== undefined && before && { client_secret_changed: true }),
      };
      if (!before) {
        const id = await insertProvider(tx, write, now);
        written.push({ id, domains: provider.email_domains });
        await audit('create', id, null, { id, ...after });
        continue;
      }
      written.push({ id: before.id, domains: provider.email_domains });
      const old = view(before);
      const changed =
        provider.client_secret !== undefined ||
        old.name !== after.name ||
        old.issuer !== after.issuer ||
        old.client_id !== after.client_id ||
        old.company_id !== after.company_id ||
        old.default_type !== after.default_type ||
        old.email_domains.join(',') !== after.email_domains.join(',');
      if (!changed) continue;
      await updateProvider(tx, before.id, write, now);
      await audit('update', before.id, old, { id: before.id, ...after });
    }
    await replaceDomains(
      tx,
      written.flatMap(({ id, domains: own }) => own.map((domain) => ({ providerId: id, domain }))),
    );
    return (await findProviders(tx)).map(view);
  });
}

/**
 * The provider that signs in an email's domain (an email, or a bare domain): its id and name only,
 * for the sign-in page's "Sign in with …" button. Public.
 */
export async function matchIdentityProvider(
  deps: ServiceDeps,
  emailOrDomain: string,
): Promise<IdentityProviderMatch> {
  const domain = emailOrDomain.trim().toLowerCase().split('@').pop() ?? '';
  if (!domain) return { provider: null };
  return { provider: await lookupProviderByDomain(deps.database.db, domain) };
}
