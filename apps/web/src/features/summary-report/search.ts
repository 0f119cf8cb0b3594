import { monthSchema, STATUSES } from '@app/contract';
import { defineTableSearch, oneOf, textFilter, type FilterDef } from '@/components/data-table';

/** A token month, YYYY-MM. */
export const monthFilter = (): FilterDef<string> => ({
  multiple: false,
  parse: ([value]) => (monthSchema.safeParse(value).success ? value : undefined),
});

/** The summary report's state in the URL: GET /reports/summary takes a month and a search. */
export const summaryReportSearch = defineTableSearch({
  filters: { month: monthFilter(), search: textFilter(100) },
});

/** A company's report in the URL: GET /reports/summary/{companyId} adds the employee status. */
export const companyReportSearch = defineTableSearch({
  filters: { month: monthFilter(), status: oneOf(STATUSES), search: textFilter(100) },
});
