import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DECLINE_CODES } from '@app/contract';
import {
  DataTableDateRangeFilter,
  DataTableFacetedFilter,
  type Option,
  type TableSearchOf,
} from '@/components/data-table';
import type { DayRange } from '@/components/date-picker';
import { ListPage } from '@/components/layout/list-page';
import { useDeclines } from '../api/get-declines';
import { declinesColumns } from '../components/declines-columns';
import type { declinesSearch } from '../search';

/**
 * Order History's Declined view (DESIGN 7): the orders a spending rule or the balance refused in
 * the caller's scope, each with its reason in words; filtered by reason, company, merchant and
 * days. Without merchant options (Group HR may not list merchants) that filter is left out.
 */
export function DeclinesPage({
  table,
  tabs,
  companyOptions,
  merchantOptions,
  tokenMonth,
}: {
  table: TableSearchOf<typeof declinesSearch>;
  /** The Orders / Declined switch, above the list. */
  tabs?: ReactNode;
  companyOptions: Option[];
  merchantOptions?: Option[];
  tokenMonth?: (companyId: number | undefined) => Promise<DayRange>;
}) {
  const { t, i18n } = useTranslation();
  const declines = useDeclines(table.query);
  const columns = useMemo(() => declinesColumns(t, i18n.language), [t, i18n.language]);
  const { filters } = table;
  return (
    <ListPage
      title={t('nav.order_history')}
      description={t('declines.description')}
      beforeTable={tabs}
      table={table}
      filters={
        <>
          <DataTableFacetedFilter
            table={table}
            filterKey="code"
            title={t('declines.reason')}
            options={DECLINE_CODES.map((code) => ({
              value: code,
              label: t(`declines.codes.${code}`),
            }))}
          />
          <DataTableFacetedFilter
            table={table}
            filterKey="company_id"
            title={t('declines.company')}
            options={companyOptions}
          />
          {merchantOptions && (
            <DataTableFacetedFilter
              table={table}
              filterKey="merchant_id"
              title={t('declines.merchant')}
              options={merchantOptions}
            />
          )}
          <DataTableDateRangeFilter
            table={table}
            fromKey="date_from"
            toKey="date_to"
            label={t('declines.date')}
            tokenMonth={tokenMonth && (() => tokenMonth(filters.company_id))}
          />
        </>
      }
      label={t('declines.table_label')}
      emptyMessage={t('declines.empty')}
      columns={columns}
      query={declines}
      tableId="order-declines"
      getRowId={(decline) => String(decline.id)}
    />
  );
}
