import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { EmployeeReportRow } from '@app/contract';
import { StatusBadge, Tokens } from '@/components/data-table';

const AMOUNT_KEYS = [
  'received',
  'purchased',
  'refunded',
  'consumed',
  'expired',
  'unused',
  'available_tokens',
] as const satisfies readonly (keyof EmployeeReportRow)[];

/** One row per employee of the company, with the month's amounts. */
export function companyReportColumns(t: TFunction): ColumnDef<EmployeeReportRow>[] {
  return [
    {
      accessorKey: 'employee_id',
      header: t('summary_reports.employee_id'),
      meta: { className: 'font-mono' },
    },
    { accessorKey: 'name', header: t('summary_reports.name') },
    { accessorKey: 'email', header: t('summary_reports.email') },
    {
      accessorKey: 'status',
      header: t('table.status'),
      cell: ({ row }) => <StatusBadge status={row.original.status} />,
    },
    ...AMOUNT_KEYS.map((key): ColumnDef<EmployeeReportRow> => ({
      accessorKey: key,
      header: t(`summary_reports.${key}`),
      meta: { className: 'text-right' },
      cell: ({ row }) => <Tokens value={row.original[key]} />,
    })),
  ];
}
