import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { KeyRound, Pencil, Power, PowerOff, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import type { Employee } from '@app/contract';
import { DataTableRowActions, StatusBadge, Tokens } from '@/components/data-table';
import { Checkbox } from '@/components/ui/checkbox';
import { paths } from '@/config/paths';

export interface EmployeeRowHandlers {
  /** Row selection for the reward-token dialog. */
  isSelected: (employee: Employee) => boolean;
  onToggleSelected: (employee: Employee, selected: boolean) => void;
  /** The header box: every row of the page selected, some, or none. */
  pageSelection: boolean | 'indeterminate';
  onTogglePage: (selected: boolean) => void;
  onEdit: (employee: Employee) => void;
  onToggleStatus: (employee: Employee) => void;
  onDelete: (employee: Employee) => void;
  /** "Give a sign-in" (decision 0033): absent, the action is not offered. */
  onGiveSignIn?: (employee: Employee) => void;
}

/** How an employee is named in labels and confirmations: the name, else the staff number. */
export const employeeName = (employee: Employee): string => employee.name || employee.employee_id;

export function employeesColumns(
  t: TFunction,
  handlers: EmployeeRowHandlers,
): ColumnDef<Employee>[] {
  const amount = { className: 'text-right' };
  return [
    {
      id: 'select',
      meta: { className: 'w-10' },
      header: () => (
        <Checkbox
          aria-label={t('employees.select_all')}
          checked={handlers.pageSelection}
          onCheckedChange={(checked) => handlers.onTogglePage(checked === true)}
        />
      ),
      cell: ({ row }) => (
        <Checkbox
          aria-label={t('employees.select_row', { name: employeeName(row.original) })}
          checked={handlers.isSelected(row.original)}
          onCheckedChange={(checked) => handlers.onToggleSelected(row.original, checked === true)}
        />
      ),
    },
    {
      accessorKey: 'employee_id',
      header: t('employees.employee_id'),
      meta: { className: 'font-mono', mobile: 'title' },
      // A real link, so the row's page opens from the keyboard too (the row opens on a click).
      cell: ({ row }) => (
        <Link
          to={paths.employeeDetail.getHref(row.original.id)}
          className="font-medium underline-offset-4 hover:underline focus-visible:underline"
        >
          {row.original.employee_id}
        </Link>
      ),
    },
    {
      accessorKey: 'name',
      header: t('employees.name'),
      meta: { className: 'font-medium' },
      cell: ({ row }) => row.original.name ?? <span className="text-muted-foreground">—</span>,
    },
    {
      accessorKey: 'email',
      header: t('employees.email_column'),
      cell: ({ row }) => row.original.email ?? <span className="text-muted-foreground">—</span>,
    },
    {
      accessorKey: 'status',
      header: t('table.status'),
      cell: ({ row }) => <StatusBadge status={row.original.status} />,
    },
    {
      accessorKey: 'available_tokens',
      header: t('employees.available_tokens'),
      meta: { className: 'text-right font-medium' },
      cell: ({ row }) => <Tokens value={row.original.available_tokens} />,
    },
    {
      accessorKey: 'consumed_tokens',
      header: t('employees.consumed_tokens'),
      meta: amount,
      cell: ({ row }) => <Tokens value={row.original.consumed_tokens} />,
    },
    {
      accessorKey: 'issued_tokens',
      header: t('employees.issued_tokens'),
      meta: amount,
      cell: ({ row }) => <Tokens value={row.original.issued_tokens} />,
    },
    { accessorKey: 'token_month', header: t('employees.token_month') },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('table.actions')}</span>,
      meta: { className: 'w-12 text-right', title: t('table.actions'), pinned: 'right' },
      cell: ({ row }) => {
        const employee = row.original;
        const isActive = employee.status === 'active';
        return (
          <DataTableRowActions
            name={employeeName(employee)}
            actions={[
              {
                label: t('actions.edit'),
                icon: <Pencil aria-hidden />,
                onSelect: () => handlers.onEdit(employee),
              },
              ...(handlers.onGiveSignIn && !employee.has_account
                ? [
                    {
                      label: t('self_service.give'),
                      icon: <KeyRound aria-hidden />,
                      onSelect: () => handlers.onGiveSignIn?.(employee),
                    },
                  ]
                : []),
              {
                label: isActive ? t('actions.deactivate') : t('actions.activate'),
                icon: isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />,
                destructive: isActive,
                onSelect: () => handlers.onToggleStatus(employee),
              },
              {
                label: t('actions.delete'),
                icon: <Trash2 aria-hidden />,
                destructive: true,
                onSelect: () => handlers.onDelete(employee),
              },
            ]}
          />
        );
      },
    },
  ];
}
