import { MERCHANT_SORTS, STATUSES } from '@app/contract';
import { defineTableSearch, oneOf, textFilter } from '@/components/data-table';

/** The merchants list's state in the URL: GET /merchants takes search (code or name) and status. */
export const merchantsSearch = defineTableSearch({
  filters: { search: textFilter(), status: oneOf(STATUSES) },
  sortable: MERCHANT_SORTS,
});
