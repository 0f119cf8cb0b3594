import { useState, type ReactNode } from 'react';
import { Coins, Pencil, Power, PowerOff, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { can } from '@app/contract';
import { StatusBadge, Tokens } from '@/components/data-table';
import {
  BackLink,
  DetailError,
  DetailSection,
  DetailSkeleton,
  FigureCards,
} from '@/components/layout/detail-layout';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useAuthStore } from '@/lib/auth-store';
import { formatMonthWords } from '@/lib/format';
import { deleteWithConfirm, toggleStatusWithConfirm } from '@/lib/status-actions';
import { useDeleteEmployee } from '../api/delete-employee';
import { useEmployee } from '../api/get-employee';
import { useUpdateEmployeeStatus } from '../api/update-employee-status';
import { EmployeeFormDialog, type EmployeeDialogState } from '../components/employee-form-dialog';
import { employeeName } from '../components/employees-columns';
import { RewardTokensDialog } from '../components/reward-tokens-dialog';
import { SpendingExceptionCard } from '../components/spending-exception-card';

/**
 * An employee's page (/employees/:id, company admin; issue 19): its wallet for the current token
 * month, its spending exception (DESIGN 7), its ledger (given by the route) and its actions: reward, edit, activate or deactivate,
 * delete.
 */
export function EmployeeDetailPage({
  employeeId,
  companyBalance,
  ledger,
}: {
  employeeId: string;
  /** The company's balance, which a reward is checked against; undefined while loading. */
  companyBalance: number | undefined;
  ledger: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const role = useAuthStore((state) => state.user?.type);
  const employee = useEmployee(employeeId);
  const { mutate: changeStatus } = useUpdateEmployeeStatus();
  const { mutate: remove } = useDeleteEmployee();
  const [dialog, setDialog] = useState<EmployeeDialogState>(null);
  const [isRewarding, setRewarding] = useState(false);
  const back = <BackLink to={paths.employees.getHref()} label={t('nav.employees')} />;

  if (employee.isPending) {
    return (
      <>
        {back}
        <DetailSkeleton />
      </>
    );
  }
  if (employee.isError) {
    return (
      <>
        {back}
        <DetailError error={employee.error} onRetry={() => void employee.refetch()} />
      </>
    );
  }
  const data = employee.data;
  const name = employeeName(data);
  const isActive = data.status === 'active';

  return (
    <>
      {back}
      <PageHeader
        title={name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-mono">{data.employee_id}</span>
            {data.email && <span>{data.email}</span>}
            <StatusBadge status={data.status} />
          </span>
        }
        actions={
          <>
            <Button variant="outline" onClick={() => setDialog({ mode: 'edit', employee: data })}>
              <Pencil aria-hidden />
              {t('actions.edit')}
            </Button>
            <Button
              variant="outline"
              onClick={() =>
                void toggleStatusWithConfirm(name, data.status, (status, callbacks) =>
                  changeStatus({ id: data.id, status }, callbacks),
                )
              }
            >
              {isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />}
              {isActive ? t('actions.deactivate') : t('actions.activate')}
            </Button>
            <Button
              variant="outline"
              className="text-destructive"
              onClick={() =>
                void deleteWithConfirm(name, (callbacks) =>
                  remove(data.id, {
                    ...callbacks,
                    onSuccess: () => {
                      callbacks.onSuccess();
                      void navigate(paths.employees.getHref());
                    },
                  }),
                )
              }
            >
              <Trash2 aria-hidden />
              {t('actions.delete')}
            </Button>
            <Button disabled={!isActive} onClick={() => setRewarding(true)}>
              <Coins aria-hidden />
              {t('employees.reward')}
            </Button>
          </>
        }
      />
      <div className="flex flex-col gap-6">
        <FigureCards
          label={t('detail.wallet')}
          figures={[
            {
              id: 'available',
              label: t('employees.available_tokens'),
              value: <Tokens value={data.available_tokens} />,
            },
            {
              id: 'issued',
              label: t('employees.issued_tokens'),
              value: <Tokens value={data.issued_tokens} />,
            },
            {
              id: 'consumed',
              label: t('employees.consumed_tokens'),
              value: <Tokens value={data.consumed_tokens} />,
            },
            {
              id: 'token_month',
              label: t('employees.token_month'),
              value: formatMonthWords(data.token_month, i18n.language),
            },
          ]}
        />
        {can(role, 'spending_rules.read') && (
          <SpendingExceptionCard employeeId={data.id} employeeName={name} />
        )}
        <DetailSection title={t('detail.ledger')}>{ledger}</DetailSection>
      </div>
      <EmployeeFormDialog state={dialog} onClose={() => setDialog(null)} />
      <RewardTokensDialog
        open={isRewarding}
        employees={[data]}
        balance={companyBalance}
        onClose={() => setRewarding(false)}
        onRewarded={() => undefined}
      />
    </>
  );
}
