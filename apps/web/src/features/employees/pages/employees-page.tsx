import { useMemo, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Coins, FileUp, LoaderCircle, Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Employee } from '@app/contract';
import type { TableSearchOf } from '@/components/data-table';
import { ListPage } from '@/components/layout/list-page';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { fetchAllPages } from '@/lib/fetch-all';
import { deleteWithConfirm, toggleStatusWithConfirm } from '@/lib/status-actions';
import { useDeleteEmployee } from '../api/delete-employee';
import { getEmployees, useEmployees } from '../api/get-employees';
import { useUpdateEmployeeStatus } from '../api/update-employee-status';
import { EmployeeFormDialog, type EmployeeDialogState } from '../components/employee-form-dialog';
import { employeeName, employeesColumns } from '../components/employees-columns';
import { GiveSignInDialog } from '../components/give-sign-in-dialog';
import { ImportEmployeesDialog } from '../components/import-employees-dialog';
import { RewardTokensDialog } from '../components/reward-tokens-dialog';
import type { employeesSearch } from '../search';

/**
 * Employees (/employees, company admin): list, the employee modal, activate/deactivate, delete,
 * the CSV import and the reward-token dialog (the selected rows, kept across pages, or a file).
 */
export function EmployeesPage({
  table,
  companyBalance,
}: {
  table: TableSearchOf<typeof employeesSearch>;
  /** The company's available token balance (GET /companies/{id}); undefined while loading. */
  companyBalance: number | undefined;
}) {
  const { t } = useTranslation();
  const employees = useEmployees(table.query);
  const { mutate: changeStatus } = useUpdateEmployeeStatus();
  const { mutate: remove } = useDeleteEmployee();
  const [dialog, setDialog] = useState<EmployeeDialogState>(null);
  const [signInFor, setSignInFor] = useState<Employee | null>(null);
  const [selected, setSelected] = useState<Map<number, Employee>>(() => new Map());
  const [isRewarding, setRewarding] = useState(false);
  const [isImporting, setImporting] = useState(false);

  const pageRows = employees.data?.data;
  // In the order they were picked, across pages; the dialog may also take its amounts from a file.
  const rewardees = useMemo(() => [...selected.values()], [selected]);
  const columns = useMemo(() => {
    const rows = pageRows ?? [];
    const onPage = rows.filter((employee) => selected.has(employee.id)).length;
    const setMany = (list: Employee[], on: boolean) =>
      setSelected((current) => {
        const next = new Map(current);
        for (const employee of list) {
          if (on) next.set(employee.id, employee);
          else next.delete(employee.id);
        }
        return next;
      });
    return employeesColumns(t, {
      isSelected: (employee) => selected.has(employee.id),
      onToggleSelected: (employee, on) => setMany([employee], on),
      pageSelection:
        rows.length > 0 && onPage === rows.length ? true : onPage > 0 ? 'indeterminate' : false,
      onTogglePage: (on) => setMany(rows, on),
      onEdit: (employee) => setDialog({ mode: 'edit', employee }),
      onGiveSignIn: setSignInFor,
      onToggleStatus: (employee) =>
        void toggleStatusWithConfirm(employeeName(employee), employee.status, (status, callbacks) =>
          changeStatus({ id: employee.id, status }, callbacks),
        ),
      onDelete: (employee) =>
        void deleteWithConfirm(employeeName(employee), (callbacks) =>
          remove(employee.id, {
            ...callbacks,
            onSuccess: () => {
              setMany([employee], false);
              callbacks.onSuccess();
            },
          }),
        ),
    });
  }, [t, pageRows, selected, changeStatus, remove]);

  const total = employees.data?.total ?? 0;
  const selectAll = useMutation({
    // Every employee the filters match, read page by page as the option lists are.
    mutationFn: () => fetchAllPages((page) => getEmployees({ ...table.query, ...page })),
    onSuccess: (all) =>
      setSelected((current) => {
        const next = new Map(current);
        for (const employee of all) next.set(employee.id, employee);
        return next;
      }),
  });
  const isPageSelected =
    (pageRows?.length ?? 0) > 0 && (pageRows ?? []).every((employee) => selected.has(employee.id));

  return (
    <ListPage
      title={t('nav.employees')}
      description={t('employees.description')}
      actions={
        <>
          <Button variant="outline" onClick={() => setRewarding(true)}>
            <Coins aria-hidden />
            {selected.size > 0
              ? t('employees.reward_selected', { n: selected.size })
              : t('employees.reward')}
          </Button>
          <Button variant="outline" onClick={() => setImporting(true)}>
            <FileUp aria-hidden />
            {t('employees.import')}
          </Button>
          <Button onClick={() => setDialog({ mode: 'create' })}>
            <Plus aria-hidden />
            {t('employees.add')}
          </Button>
        </>
      }
      beforeTable={
        selected.size > 0 && (
          <div
            role="status"
            className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border bg-muted/40 px-3 py-2 text-sm"
          >
            <span>{t('rewards.selected_count', { count: selected.size })}</span>
            {isPageSelected && total > selected.size && (
              <Button
                variant="link"
                className="h-auto px-0"
                disabled={selectAll.isPending}
                onClick={() => selectAll.mutate()}
              >
                {selectAll.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
                {t('rewards.select_all_matching', { count: total })}
              </Button>
            )}
            <Button variant="link" className="h-auto px-0" onClick={() => setSelected(new Map())}>
              {t('rewards.clear_selection')}
            </Button>
          </div>
        )
      }
      table={table}
      search={{ filterKey: 'search', placeholder: t('employees.search_placeholder') }}
      statuses
      label={t('employees.table_label')}
      columns={columns}
      query={employees}
      tableId="employees"
      rowHref={(employee) => paths.employeeDetail.getHref(employee.id)}
      getRowId={(employee) => String(employee.id)}
    >
      <EmployeeFormDialog state={dialog} onClose={() => setDialog(null)} />
      <GiveSignInDialog employee={signInFor} onClose={() => setSignInFor(null)} />
      <ImportEmployeesDialog open={isImporting} onClose={() => setImporting(false)} />
      <RewardTokensDialog
        open={isRewarding}
        employees={rewardees}
        balance={companyBalance}
        onClose={() => setRewarding(false)}
        onRewarded={() => setSelected(new Map())}
      />
    </ListPage>
  );
}
