import { useTranslation } from 'react-i18next';
import { STATUSES } from '@app/contract';
import { DataTableFacetedFilter } from './data-table-faceted-filter';
import type { FilterDefs, TableSearch } from './table-search';

/**
 * The Status filter of a list, its options the statuses in words: a record's active/inactive
 * unless the list's own statuses are given (an order's ordered/refunded).
 */
export function DataTableStatusFilter<F extends FilterDefs>({
  table,
  statuses = STATUSES,
}: {
  table: TableSearch<F>;
  statuses?: readonly string[];
}) {
  const { t } = useTranslation();
  return (
    <DataTableFacetedFilter
      table={table}
      filterKey={'status' as keyof F & string}
      title={t('table.status')}
      options={statuses.map((status) => ({ value: status, label: t(`statuses.${status}`) }))}
    />
  );
}
