import { useMemo, useState } from 'react';
import { Plus } from 'lucide-react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DataTableFacetedFilter, type TableSearchOf } from '@/components/data-table';
import { ListPage } from '@/components/layout/list-page';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { deleteWithConfirm, toggleStatusWithConfirm } from '@/lib/status-actions';
import { useDeleteMerchant } from '../api/delete-merchant';
import { useMerchants } from '../api/get-merchants';
import { useUpdateMerchantStatus } from '../api/update-merchant-status';
import { MerchantFormDialog, type MerchantDialogState } from '../components/merchant-form-dialog';
import { merchantCategoryOptions } from '../components/merchant-category';
import { merchantsColumns } from '../components/merchants-columns';
import type { merchantsSearch } from '../search';

/**
 * Merchants (/merchants, admin): list (by status and category), create and edit, activate/deactivate, delete. A merchant's staff are
 * managed on User Management and its terminals on Terminals, each opened filtered to it.
 */
export function MerchantsPage({ table }: { table: TableSearchOf<typeof merchantsSearch> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const merchants = useMerchants(table.query);
  const { mutate: changeStatus } = useUpdateMerchantStatus();
  const { mutate: removeMerchant } = useDeleteMerchant();
  const [dialog, setDialog] = useState<MerchantDialogState>(null);

  const columns = useMemo(
    () =>
      merchantsColumns(t, {
        onEdit: (merchant) => setDialog({ mode: 'edit', merchant }),
        onDelete: (merchant) =>
          void deleteWithConfirm(merchant.name, (callbacks) =>
            removeMerchant(merchant.id, callbacks),
          ),
        onToggleStatus: (merchant) =>
          void toggleStatusWithConfirm(merchant.name, merchant.status, (status, callbacks) =>
            changeStatus({ id: merchant.id, status }, callbacks),
          ),
        onOpenStaff: (merchant) => void navigate(paths.users.getHref({ merchant_id: merchant.id })),
        onOpenTerminals: (merchant) =>
          void navigate(paths.terminals.getHref({ merchant_id: merchant.id })),
      }),
    [t, changeStatus, removeMerchant, navigate],
  );

  return (
    <ListPage
      title={t('nav.merchants')}
      description={t('merchants.description')}
      actions={
        <Button onClick={() => setDialog({ mode: 'create' })}>
          <Plus aria-hidden />
          {t('merchants.add')}
        </Button>
      }
      table={table}
      search={{ filterKey: 'search', placeholder: t('merchants.search_placeholder') }}
      statuses
      filters={
        <DataTableFacetedFilter
          table={table}
          filterKey="category"
          title={t('merchant_category.label')}
          options={merchantCategoryOptions(t)}
        />
      }
      label={t('merchants.table_label')}
      columns={columns}
      query={merchants}
      tableId="merchants"
      rowHref={(merchant) => paths.merchantDetail.getHref(merchant.id)}
      getRowId={(merchant) => String(merchant.id)}
    >
      <MerchantFormDialog state={dialog} onClose={() => setDialog(null)} />
    </ListPage>
  );
}
