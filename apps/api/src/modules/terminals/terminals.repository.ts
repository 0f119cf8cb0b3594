import { and, count, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import type { Status, Terminal } from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import { terminals } from '../../db/schema';
import { iso } from '../../lib/numbers';
import { likePattern } from '../../lib/sql';

export type TerminalRow = typeof terminals.$inferSelect;

export const toTerminal = (row: TerminalRow): Terminal => ({
  id: row.id,
  merchant_id: row.merchantId,
  code: row.code,
  name: row.name,
  status: row.status as Status,
  api_key_prefix: row.apiKeyPrefix,
  key_rotated_at: iso(row.keyRotatedAt),
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
});

/** Soft-deleted terminals (migration 0008) are gone from every read and write of this module. */
const live = isNull(terminals.deletedAt);

export async function insertTerminal(
  executor: Executor,
  values: {
    merchantId: number;
    code: string;
    name: string;
    status: Status;
    apiKeyHash: string;
    apiKeyPrefix: string;
    at: Date;
  },
): Promise<TerminalRow> {
  const { at, ...rest } = values;
  const [row] = await executor
    .insert(terminals)
    .values({ ...rest, keyRotatedAt: at, createdAt: at, updatedAt: at })
    .returning();
  return row!;
}

export async function findTerminal(
  executor: Executor,
  id: number,
): Promise<TerminalRow | undefined> {
  const [row] = await executor
    .select()
    .from(terminals)
    .where(and(eq(terminals.id, id), live));
  return row;
}

export async function findTerminals(
  executor: Executor,
  query: {
    merchantId?: number | undefined;
    status?: Status | undefined;
    search?: string | undefined;
    page: number;
    pageSize: number;
  },
): Promise<{ rows: TerminalRow[]; total: number }> {
  const pattern = query.search ? likePattern(query.search) : undefined;
  const where = and(
    live,
    query.merchantId ? eq(terminals.merchantId, query.merchantId) : undefined,
    query.status ? eq(terminals.status, query.status) : undefined,
    pattern ? or(ilike(terminals.code, pattern), ilike(terminals.name, pattern)) : undefined,
  );
  const rows = await executor
    .select()
    .from(terminals)
    .where(where)
    .orderBy(desc(terminals.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await executor.select({ n: count() }).from(terminals).where(where);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function updateTerminal(
  executor: Executor,
  id: number,
  values: Partial<
    Pick<
      TerminalRow,
      'name' | 'status' | 'apiKeyHash' | 'apiKeyPrefix' | 'keyRotatedAt' | 'deletedAt'
    >
  > & {
    updatedAt: Date;
  },
): Promise<TerminalRow | undefined> {
  const [row] = await executor
    .update(terminals)
    .set(values)
    .where(and(eq(terminals.id, id), live))
    .returning();
  return row;
}

/**
 * The terminal holding a key, with its merchant's status: one indexed lookup per request. A
 * deleted terminal or merchant reads as inactive, so the terminal API refuses it. Plain SQL: the
 * query builder cost more CPU than the query itself on this path (issue 6).
 */
export async function findTerminalByKeyHash(
  executor: Executor,
  hash: string,
): Promise<{ id: number; merchantId: number; status: string; merchantStatus: string } | undefined> {
  const [row] = await queryRows<{
    id: number;
    merchantId: number;
    status: string;
    merchantStatus: string;
  }>(
    executor,
    sql`SELECT t.id, t.merchant_id AS "merchantId",
               CASE WHEN t.deleted_at IS NULL THEN t.status ELSE 'inactive' END AS status,
               CASE WHEN m.deleted_at IS NULL THEN m.status ELSE 'inactive' END AS "merchantStatus"
          FROM terminals t JOIN merchants m ON m.id = t.merchant_id
         WHERE t.api_key_hash = ${hash}`,
  );
  return row;
}
