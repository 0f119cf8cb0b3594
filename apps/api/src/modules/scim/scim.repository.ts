import { sql } from 'drizzle-orm';
import { SCIM_REQUESTS_KEPT, type ScimRequest, type ScimToken } from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import { iso, isoOrNull, toInt, toIntOrNull } from '../../lib/numbers';

interface TokenRow {
  id: unknown;
  company_id: unknown;
  description: string;
  prefix: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

const toToken = (r: TokenRow): ScimToken => ({
  id: toInt(r.id),
  company_id: toInt(r.company_id),
  description: r.description,
  prefix: r.prefix,
  created_at: iso(r.created_at),
  last_used_at: isoOrNull(r.last_used_at),
});

const TOKEN_COLUMNS = sql`id, company_id, description, prefix, created_at, last_used_at`;

export async function insertScimToken(
  executor: Executor,
  values: {
    companyId: number;
    description: string;
    tokenHash: string;
    prefix: string;
    createdBy: number | null;
    at: Date;
  },
): Promise<ScimToken> {
  const [row] = await queryRows<TokenRow>(
    executor,
    sql`INSERT INTO scim_tokens (company_id, description, token_hash, prefix, created_by, created_at)
        VALUES (${values.companyId}, ${values.description}, ${values.tokenHash}, ${values.prefix},
                ${values.createdBy}, ${values.at})
        RETURNING ${TOKEN_COLUMNS}`,
  );
  return toToken(row!);
}

/** A company's live (unrevoked) tokens, oldest first. */
export async function findScimTokens(executor: Executor, companyId: number): Promise<ScimToken[]> {
  const rows = await queryRows<TokenRow>(
    executor,
    sql`SELECT ${TOKEN_COLUMNS} FROM scim_tokens
         WHERE company_id = ${companyId} AND revoked_at IS NULL ORDER BY id`,
  );
  return rows.map(toToken);
}

/** Revokes one of a company's live tokens; the token as it was, or null when there is none. */
export async function revokeScimToken(
  executor: Executor,
  companyId: number,
  tokenId: number,
  at: Date,
): Promise<ScimToken | null> {
  const [row] = await queryRows<TokenRow>(
    executor,
    sql`UPDATE scim_tokens SET revoked_at = ${at}
         WHERE id = ${tokenId} AND company_id = ${companyId} AND revoked_at IS NULL
        RETURNING ${TOKEN_COLUMNS}`,
  );
  return row ? toToken(row) : null;
}

/**
 * The live token of a hash, marked used now; null for an unknown or revoked one. One statement,
 * so a token revoked meanwhile is not used.
 */
export async function useScimToken(
  executor: Executor,
  tokenHash: string,
  at: Date,
): Promise<{ id: number; companyId: number } | null> {
  const [row] = await queryRows<{ id: unknown; company_id: unknown }>(
    executor,
    sql`UPDATE scim_tokens SET last_used_at = ${at}
         WHERE token_hash = ${tokenHash} AND revoked_at IS NULL
        RETURNING id, company_id`,
  );
  return row ? { id: toInt(row.id), companyId: toInt(row.company_id) } : null;
}

/** Logs one SCIM request and trims the company's log to its newest SCIM_REQUESTS_KEPT rows. */
export async function insertScimRequest(
  executor: Executor,
  values: {
    companyId: number;
    tokenId: number;
    method: string;
    path: string;
    status: number;
    at: Date;
  },
): Promise<void> {
  await queryRows(
    executor,
    sql`INSERT INTO scim_requests (company_id, token_id, method, path, status, occurred_at)
        VALUES (${values.companyId}, ${values.tokenId}, ${values.method.slice(0, 10)},
                ${values.path.slice(0, 500)}, ${values.status}, ${values.at})`,
  );
  await queryRows(
    executor,
    sql`DELETE FROM scim_requests
         WHERE company_id = ${values.companyId}
           AND id < (SELECT id FROM scim_requests WHERE company_id = ${values.companyId}
                      ORDER BY id DESC OFFSET ${SCIM_REQUESTS_KEPT - 1} LIMIT 1)`,
  );
}

interface RequestRow {
  id: unknown;
  token_id: unknown;
  method: string;
  path: string;
  status: unknown;
  occurred_at: Date | string;
}

/** A company's logged SCIM requests, newest first. */
export async function findScimRequests(
  executor: Executor,
  companyId: number,
): Promise<ScimRequest[]> {
  const rows = await queryRows<RequestRow>(
    executor,
    sql`SELECT id, token_id, method, path, status, occurred_at FROM scim_requests
         WHERE company_id = ${companyId} ORDER BY id DESC LIMIT ${SCIM_REQUESTS_KEPT}`,
  );
  return rows.map((r) => ({
    id: toInt(r.id),
    token_id: toIntOrNull(r.token_id),
    method: r.method,
    path: r.path,
    status: toInt(r.status),
    occurred_at: iso(r.occurred_at),
  }));
}
