import { STATUSES } from '@app/contract';
import { defineTableSearch, idFilter, oneOf, textFilter } from '@/components/data-table';

/** The terminals list's state in the URL: GET /terminals takes search, merchant and status. */
export const terminalsSearch = defineTableSearch({
  filters: { search: textFilter(), merchant_id: idFilter(), status: oneOf(STATUSES) },
});
