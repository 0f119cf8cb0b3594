import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DataTableDateRangeFilter,
  DataTableExportButton,
  DataTableFacetedFilter,
  type Option,
  type TableSearchOf,
} from '@/components/data-table';
import { ListPage } from '@/components/layout/list-page';
import { paths } from '@/config/paths';
import { exportSettlements } from '../api/export-settlements';
import { useSettlements } from '../api/get-settlements';
import { periodLabel } from '../components/period-label';
import { settlementColumns } from '../components/settlement-columns';
import { SettlementFigures } from '../components/settlement-figures';
import type { settlementsSearch } from '../search';

/**
 * Settlements (admin, Group HR, merchant roles; decision 0040): each merchant's half-month
 * statements in a range of days, with the range's totals; a row opens the statement. Merchant
 * options come from the route; a merchant role, which sees only its own, gets none.
 */
export function SettlementsPage({
  table,
  merchantOptions,
}: {
  table: TableSearchOf<typeof settlementsSearch>;
  merchantOptions?: Option[];
}) {
  const { t } = useTranslation();
  const settlements = useSettlements(table.query);
  const columns = useMemo(() => settlementColumns(t), [t]);
  const { filters } = table;
  const range = settlements.data;

  return (
    <ListPage
      title={t('nav.settlements')}
      description={
        range
          ? t('settlements.description_range', {
              range: periodLabel({ period_start: range.from, period_end: range.to }),
            })
          : t('settlements.description')
      }
      beforeTable={
        range &&
        range.total > 0 && (
          <div className="mb-6">
            <SettlementFigures figures={range.totals} label={t('settlements.range_totals')} />
          </div>
        )
      }
      table={table}
      filters={
        <>
          {merchantOptions && (
            <DataTableFacetedFilter
              table={table}
              filterKey="merchant_id"
              title={t('settlements.merchant')}
              options={merchantOptions}
            />
          )}
          <DataTableDateRangeFilter
            table={table}
            fromKey="from"
            toKey="to"
            label={t('settlements.date')}
          />
        </>
      }
      toolbarActions={<DataTableExportButton onExport={() => exportSettlements(filters)} />}
      label={t('settlements.table_label')}
      columns={columns}
      query={settlements}
      tableId="settlements"
      getRowId={(p) => `${p.merchant_id}/${p.period_start}`}
      rowHref={(p) => paths.settlementStatement.getHref(p.merchant_id, p.period_start)}
      emptyMessage={t('settlements.empty')}
    />
  );
}
