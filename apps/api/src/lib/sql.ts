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
