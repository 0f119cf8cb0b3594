import { EMPLOYEE_SORTS, STATUSES } from '@app/contract';
import { defineTableSearch, oneOf, textFilter } from '@/components/data-table';

/** The employees list's state in the URL: GET /employees takes search and status. */
export const employeesSearch = defineTableSearch({
  filters: { search: textFilter(), status: oneOf(STATUSES) },
  sortable: EMPLOYEE_SORTS,
});
