import { MANAGED_USER_TYPES, STATUSES, USER_SORTS } from '@app/contract';
import { defineTableSearch, idFilter, manyOf, oneOf, textFilter } from '@/components/data-table';

/** User Management's list state in the URL: GET /users takes search, type (repeated), status, merchant. */
export const usersSearch = defineTableSearch({
  filters: {
    search: textFilter(),
    type: manyOf(MANAGED_USER_TYPES),
    status: oneOf(STATUSES),
    merchant_id: idFilter(),
  },
  sortable: USER_SORTS,
});
