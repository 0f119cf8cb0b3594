import type { PAGE_SIZES } from '@app/contract';

/** A page size the lists take (DESIGN 4): 10, 20 or 50. */
type PageSize = (typeof PAGE_SIZES)[number];

/** The most pages an option list reads (50 rows each): a guard against a runaway loop. */
const MAX_PAGES = 40;
const PAGE_SIZE: PageSize = 50;

/**
 * Reads every page of a `{ data, total }` list, for select options (merchants, companies).
 * Lists are server-paged with at most 50 rows a page (DESIGN 4).
 */
export async function fetchAllPages<T>(
  fetchPage: (query: {
    page: number;
    page_size: PageSize;
  }) => Promise<{ data: T[]; total: number }>,
): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const { data, total } = await fetchPage({ page, page_size: PAGE_SIZE });
    rows.push(...data);
    if (data.length < PAGE_SIZE || rows.length >= total) break;
  }
  return rows;
}
