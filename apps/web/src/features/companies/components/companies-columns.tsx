import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { Coins, FileBarChart, Pencil, Power, PowerOff, UserCog } from 'lucide-react';
import { Link } from 'react-router';
import type { Company } from '@app/contract';
import {
  DataTableRowActions,
  DateTime,
  StatusBadge,
  Tokens,
  type RowAction,
} from '@/components/data-table';
import { paths } from '@/config/paths';

export interface CompanyRowHandlers {
  canIssueTokens: boolean;
  onEdit: (company: Company) => void;
  onIssueTokens: (company: Company) => void;
  onManageAdmins: (company: Company) => void;
  /** The flag on a company without an admin opens the new-admin form. */
  onAddAdmin: (company: Company) => void;
  onOpenReport: (company: Company) => void;
  onToggleStatus: (company: Company) => void;
}

export function companiesColumns(t: TFunction, handlers: CompanyRowHandlers): ColumnDef<Company>[] {
  const amount = { className: 'text-right' };
  return [
    { accessorKey: 'code', header: t('companies.code'), meta: { className: 'font-mono' } },
    {
      accessorKey: 'name',
      header: t('companies.name'),
      meta: { className: 'font-medium', mobile: 'title' },
      // A real link, so the row's page opens from the keyboard too (the row opens on a click);
      // a company without an admin is flagged, and the flag opens the admin form.
      cell: ({ row }) => {
        const company = row.original;
        return (
          <span className="flex flex-wrap items-center gap-2">
            <Link
              to={paths.companyDetail.getHref(company.id)}
              className="font-medium underline-offset-4 hover:underline focus-visible:underline"
            >
              {company.name}
            </Link>
            {company.admin_count === 0 && (
              <button
                type="button"
                className="rounded-md border border-amber-300 bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-900 hover:bg-amber-100 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                aria-label={t('companies.no_admin_add', { name: company.name })}
                data-flag="no-admin"
                onClick={() => handlers.onAddAdmin(company)}
              >
                {t('companies.no_admin')}
              </button>
            )}
          </span>
        );
      },
    },
    {
      accessorKey: 'status',
      header: t('table.status'),
      cell: ({ row }) => <StatusBadge status={row.original.status} />,
    },
    {
      accessorKey: 'monthly_reset_day',
      header: t('companies.reset_day'),
      meta: amount,
    },
    {
      accessorKey: 'init_token',
      header: t('companies.init_token'),
      meta: amount,
      cell: ({ row }) => <Tokens value={row.original.init_token} />,
    },
    {
      accessorKey: 'init_token_next_month',
      header: t('companies.init_token_next_month'),
      meta: amount,
      cell: ({ row }) => <Tokens value={row.original.init_token_next_month} />,
    },
    {
      accessorKey: 'token_balance',
      header: t('companies.current_balance'),
      meta: { className: 'text-right font-medium' },
      cell: ({ row }) => <Tokens value={row.original.token_balance} />,
    },
    {
      accessorKey: 'next_reset_at',
      header: t('companies.next_reset'),
      cell: ({ row }) => <DateTime value={row.original.next_reset_at} />,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('table.actions')}</span>,
      meta: { className: 'w-12 text-right', title: t('table.actions'), pinned: 'right' },
      cell: ({ row }) => {
        const company = row.original;
        const isActive = company.status === 'active';
        const actions: RowAction[] = [
          {
            label: t('actions.edit'),
            icon: <Pencil aria-hidden />,
            onSelect: () => handlers.onEdit(company),
          },
          {
            label: t('company_admins.title'),
            icon: <UserCog aria-hidden />,
            onSelect: () => handlers.onManageAdmins(company),
          },
        ];
        if (handlers.canIssueTokens) {
          actions.push({
            label: t('companies.issue'),
            icon: <Coins aria-hidden />,
            onSelect: () => handlers.onIssueTokens(company),
            disabled: !isActive,
            hint: isActive ? undefined : t('COMPANY_INACTIVE', { ns: 'errors' }),
          });
        }
        actions.push(
          {
            label: t('companies.summary_report'),
            icon: <FileBarChart aria-hidden />,
            onSelect: () => handlers.onOpenReport(company),
          },
          {
            label: isActive ? t('actions.deactivate') : t('actions.activate'),
            icon: isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />,
            destructive: isActive,
            onSelect: () => handlers.onToggleStatus(company),
          },
        );
        return <DataTableRowActions name={company.name} actions={actions} />;
      },
    },
  ];
}
