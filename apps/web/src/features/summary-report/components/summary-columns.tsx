import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import type { CompanyTotals, DashboardTotals } from '@app/contract';
import { Tokens } from '@/components/data-table';
import { paths } from '@/config/paths';
import { formatDayRange } from '@/lib/format';

/** The five totals of spec 3, in the order the report shows them. */
export const TOTAL_KEYS = [
  'tokens_from_admin',
  'distributed_to_employees',
  'consumed_by_employees',
  'company_unused',
  'employee_unused',
] as const satisfies readonly (keyof DashboardTotals)[];

/**
 * One row per company; the company's name opens its per-employee report for whoever may see it
 * (admin, Group HR), keeping the month shown.
 */
export function summaryColumns(
  t: TFunction,
  options: { canOpenCompany: boolean; month?: string },
): ColumnDef<CompanyTotals>[] {
  return [
    {
      accessorKey: 'company_code',
      header: t('summary_reports.company_code'),
      meta: { className: 'font-mono' },
    },
    {
      accessorKey: 'company_name',
      header: t('summary_reports.company_name'),
      cell: ({ row }) =>
        options.canOpenCompany ? (
          <Link
            to={paths.summaryReportCompany.getHref(row.original.company_id, {
              month: options.month,
            })}
            className="font-medium underline-offset-4 hover:underline"
            aria-label={t('summary_reports.open_company', { name: row.original.company_name })}
          >
            {row.original.company_name}
          </Link>
        ) : (
          row.original.company_name
        ),
    },
    {
      // The token month each row counts (decision 0088).
      id: 'counted_days',
      header: t('summary_reports.counted_days'),
      meta: { className: 'whitespace-nowrap' },
      cell: ({ row }) => formatDayRange(row.original.counted_from, row.original.counted_to),
    },
    ...TOTAL_KEYS.map((key): ColumnDef<CompanyTotals> => ({
      accessorKey: key,
      header: t(`summary_reports.${key}`),
      meta: { className: 'text-right' },
      cell: ({ row }) => <Tokens value={row.original[key]} />,
    })),
  ];
}
