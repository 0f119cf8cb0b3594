import { and, count, desc, eq, ilike, isNull, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { Merchant, MerchantCategory, MerchantSort, SortOrder, Status } from '@app/contract';
import type { Executor } from '../../db/client';
import { merchants, terminals } from '../../db/schema';
import { iso } from '../../lib/numbers';
import { likePattern, sortedBy } from '../../lib/sql';

export type MerchantRow = typeof merchants.$inferSelect;

export const toMerchant = (row: MerchantRow): Merchant => ({
  id: row.id,
  code: row.code,
  name: row.name,
  status: row.status as Status,
  category: row.category as MerchantCategory,
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
});

/** Soft-deleted merchants (migration 0008) are gone from every read and write of this module. */
const live = isNull(merchants.deletedAt);

export async function insertMerchant(
  executor: Executor,
  values: { code: string; name: string; status: Status; category?: MerchantCategory; at: Date },
): Promise<MerchantRow> {
  const { at, ...rest } = values;
  const [row] = await executor
    .insert(merchants)
    .values({ ...rest, createdAt: at, updatedAt: at })
    .returning();
  return row!;
}

export async function lookupMerchant(
  executor: Executor,
  id: number,
): Promise<MerchantRow | undefined> {
  const [row] = await executor
    .select()
    .from(merchants)
    .where(and(eq(merchants.id, id), live));
  return row;
}

/** The columns the merchants list sorts by (lower-cased text, so case does not split names). */
const MERCHANT_SORT_COLUMNS: Record<MerchantSort, SQLWrapper> = {
  code: sql`lower(${merchants.code})`,
  name: sql`lower(${merchants.name})`,
  status: merchants.status,
  created_at: merchants.createdAt,
};

export async function findMerchants(
  executor: Executor,
  query: {
    status?: Status | undefined;
    category?: MerchantCategory | undefined;
    search?: string | undefined;
    page: number;
    pageSize: number;
    sort?: MerchantSort | undefined;
    order?: SortOrder | undefined;
  },
): Promise<{ rows: MerchantRow[]; total: number }> {
  const pattern = query.search ? likePattern(query.search) : undefined;
  const where = and(
    live,
    query.status ? eq(merchants.status, query.status) : undefined,
    query.category ? eq(merchants.category, query.category) : undefined,
    pattern ? or(ilike(merchants.code, pattern), ilike(merchants.name, pattern)) : undefined,
  );
  const rows = await executor
    .select()
    .from(merchants)
    .where(where)
    .orderBy(
      ...(query.sort
        ? sortedBy(MERCHANT_SORT_COLUMNS[query.sort], merchants.id, query.order ?? 'asc')
        : [desc(merchants.id)]),
    )
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await executor.select({ n: count() }).from(merchants).where(where);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function updateMerchant(
  executor: Executor,
  id: number,
  values: Partial<Pick<MerchantRow, 'name' | 'status' | 'category'>> & { updatedAt: Date },
): Promise<MerchantRow | undefined> {
  const [row] = await executor
    .update(merchants)
    .set(values)
    .where(and(eq(merchants.id, id), live))
    .returning();
  return row;
}

/** Soft-deletes a merchant and its terminals: each becomes inactive and hidden. */
export async function softDeleteMerchant(
  executor: Executor,
  id: number,
  at: Date,
): Promise<MerchantRow | undefined> {
  const [row] = await executor
    .update(merchants)
    .set({ status: 'inactive', deletedAt: at, updatedAt: at })
    .where(and(eq(merchants.id, id), live))
    .returning();
  if (row) {
    await executor
      .update(terminals)
      .set({ status: 'inactive', deletedAt: at, updatedAt: at })
      .where(and(eq(terminals.merchantId, id), isNull(terminals.deletedAt)));
  }
  return row;
}
