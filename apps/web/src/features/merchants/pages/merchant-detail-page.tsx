import { useState, type ReactNode } from 'react';
import { MonitorSmartphone, Pencil, Power, PowerOff, Trash2, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DateTime, StatusBadge } from '@/components/data-table';
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
import { deleteWithConfirm, toggleStatusWithConfirm } from '@/lib/status-actions';
import { useDeleteMerchant } from '../api/delete-merchant';
import { useMerchant } from '../api/get-merchant';
import { useUpdateMerchantStatus } from '../api/update-merchant-status';
import { merchantCategoryLabel } from '../components/merchant-category';
import { MerchantFormDialog, type MerchantDialogState } from '../components/merchant-form-dialog';

/**
 * A merchant's page (/merchants/:id, admin; issue 19). A merchant holds no wallet: its ledger is
 * its orders (given by the route), and its actions are the list's: edit, activate or deactivate,
 * delete, and its terminals and staff.
 */
export function MerchantDetailPage({
  merchantId,
  orders,
}: {
  merchantId: string;
  orders: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const merchant = useMerchant(merchantId);
  const { mutate: changeStatus } = useUpdateMerchantStatus();
  const { mutate: remove } = useDeleteMerchant();
  const [dialog, setDialog] = useState<MerchantDialogState>(null);
  const back = <BackLink to={paths.merchants.getHref()} label={t('nav.merchants')} />;

  if (merchant.isPending) {
    return (
      <>
        {back}
        <DetailSkeleton />
      </>
    );
  }
  if (merchant.isError) {
    return (
      <>
        {back}
        <DetailError error={merchant.error} onRetry={() => void merchant.refetch()} />
      </>
    );
  }
  const data = merchant.data;
  const isActive = data.status === 'active';

  return (
    <>
      {back}
      <PageHeader
        title={data.name}
        description={
          <span className="flex items-center gap-2">
            <span className="font-mono">{data.code}</span>
            <StatusBadge status={data.status} />
          </span>
        }
        actions={
          <>
            <Button variant="outline" onClick={() => setDialog({ mode: 'edit', merchant: data })}>
              <Pencil aria-hidden />
              {t('actions.edit')}
            </Button>
            <Button variant="outline" asChild>
              <Link to={paths.terminals.getHref({ merchant_id: data.id })}>
                <MonitorSmartphone aria-hidden />
                {t('nav.terminals')}
              </Link>
            </Button>
            <Button variant="outline" asChild>
              <Link to={paths.users.getHref({ merchant_id: data.id })}>
                <Users aria-hidden />
                {t('detail.staff')}
              </Link>
            </Button>
            <Button
              variant="outline"
              onClick={() =>
                void toggleStatusWithConfirm(data.name, data.status, (status, callbacks) =>
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
                void deleteWithConfirm(data.name, (callbacks) =>
                  remove(data.id, {
                    ...callbacks,
                    onSuccess: () => {
                      callbacks.onSuccess();
                      void navigate(paths.merchants.getHref());
                    },
                  }),
                )
              }
            >
              <Trash2 aria-hidden />
              {t('actions.delete')}
            </Button>
          </>
        }
      />
      <div className="flex flex-col gap-6">
        <FigureCards
          label={t('detail.details')}
          figures={[
            { id: 'code', label: t('merchants.code'), value: data.code },
            {
              id: 'category',
              label: t('merchant_category.label'),
              value: merchantCategoryLabel(t, data.category),
            },
            {
              id: 'created',
              label: t('table.created_at'),
              value: <DateTime value={data.created_at} />,
            },
          ]}
        />
        <DetailSection title={t('detail.orders')}>{orders}</DetailSection>
      </div>
      <MerchantFormDialog state={dialog} onClose={() => setDialog(null)} />
    </>
  );
}
