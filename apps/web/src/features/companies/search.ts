import { COMPANY_SORTS, STATUSES } from '@app/contract';
import { defineTableSearch, oneOf, textFilter } from '@/components/data-table';

/** The companies list's state in the URL: GET /companies takes search (code or name) and status. */
export const companiesSearch = defineTableSearch({
  filters: { search: textFilter(), status: oneOf(STATUSES) },
  sortable: COMPANY_SORTS,
});
