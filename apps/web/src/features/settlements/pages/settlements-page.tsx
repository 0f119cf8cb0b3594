import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DataTable,
  DataTableDateRangeFilter,
  DataTableExportButton,
  DataTableFacetedFilter,
  DataTableToolbar,
  type Option,
  type TableSearchOf,
} from '@/components/data-table';
import { PageHeader } from '@/components/layout/page-header';
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
    <>
      <PageHeader
        title={t('nav.settlements')}
        description={
          range
            ? t('settlements.description_range', {
                range: periodLabel({ period_start: range.from, period_end: range.to }),
              })
            : t('settlements.description')
        }
      />
      {range && range.total > 0 && (
        <div className="mb-6">
          <SettlementFigures figures={range.totals} label={t('settlements.range_totals')} />
        </div>
      )}
      <DataTable
        label={t('settlements.table_label')}
        columns={columns}
        query={settlements}
        paging={table}
        tableId="settlements"
        getRowId={(p) => `${p.merchant_id}/${p.period_start}`}
        rowHref={(p) => paths.settlementStatement.getHref(p.merchant_id, p.period_start)}
        emptyMessage={t('settlements.empty')}
        toolbar={
          <DataTableToolbar
            table={table}
            actions={<DataTableExportButton onExport={() => exportSettlements(filters)} />}
          >
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
          </DataTableToolbar>
        }
      />
    </>
  );
}
