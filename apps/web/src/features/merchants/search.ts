import { MERCHANT_CATEGORIES, MERCHANT_SORTS, STATUSES } from '@app/contract';
import { defineTableSearch, oneOf, textFilter } from '@/components/data-table';

/**
 * The merchants list's state in the URL: GET /merchants takes search (code or name), status and
 * category (DESIGN 7).
 */
export const merchantsSearch = defineTableSearch({
  filters: {
    search: textFilter(),
    status: oneOf(STATUSES),
    category: oneOf(MERCHANT_CATEGORIES),
  },
  sortable: MERCHANT_SORTS,
});
