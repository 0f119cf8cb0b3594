import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** A LIKE/ILIKE pattern that finds `text` anywhere, its wildcard characters taken literally. */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * ORDER BY for a list sorted by one column (issue 19): the column in the asked direction, empty
 * values last either way, then the row id in the same direction, so the order is total: offset
 * pages neither repeat nor skip a row.
 */
export function sortedBy(column: SQLWrapper, id: SQLWrapper, order: 'asc' | 'desc'): SQL[] {
  return order === 'desc'
    ? [sql`${column} DESC NULLS LAST`, sql`${id} DESC`]
    : [sql`${column} ASC NULLS LAST`, sql`${id} ASC`];
}

/**
 * A paged list's query (`?status&search&page&page_size&sort&order`) as the repositories take it:
 * an empty search is none, the page size in camel case.
 */
export function pagedFilterOf<Status, Sort>(query: {
  status?: Status | undefined;
  search?: string | undefined;
  page: number;
  page_size: number;
  sort?: Sort | undefined;
  order?: 'asc' | 'desc' | undefined;
}) {
  return {
    status: query.status,
    search: query.search || undefined,
    page: query.page,
    pageSize: query.page_size,
    sort: query.sort,
    order: query.order,
  };
}
