import { useMemo, useState } from 'react';
import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ROLE_SCOPE, STATUSES, userTypesManagedBy } from '@app/contract';
import {
  DataTable,
  DataTableFacetedFilter,
  DataTableSearch,
  DataTableToolbar,
  type Option,
  type TableSearch,
} from '@/components/data-table';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { useAuthStore } from '@/lib/auth-store';
import { deleteWithConfirm, toggleStatusWithConfirm } from '@/lib/status-actions';
import { useDeleteUser } from '../api/delete-user';
import { useUsers } from '../api/get-users';
import { useUpdateUserStatus } from '../api/update-user-status';
import {
  UserFormDialog,
  type ManagedScope,
  type UserDialogState,
} from '../components/user-form-dialog';
import { usersColumns } from '../components/users-columns';
import type { usersSearch } from '../search';

/**
 * User Management (/user): for the admin, platform users and merchant users; for a merchant
 * admin, its own merchant's supervisors and staff (DESIGN 2). With the user modal, the status
 * confirm and the delete confirm of spec 2. `merchantOptions` come from the route.
 */
export function UsersPage({
  table,
  merchantOptions,
}: {
  table: TableSearch<typeof usersSearch.filters>;
  merchantOptions: Option[];
}) {
  const { t } = useTranslation();
  const selfId = useAuthStore((state) => state.user?.user_id);
  const role = useAuthStore((state) => state.user?.type);
  const scope = useMemo<ManagedScope>(
    () => ({
      types: userTypesManagedBy(role),
      isMerchantImplied: role !== undefined && ROLE_SCOPE[role] === 'merchant',
    }),
    [role],
  );
  const { isMerchantImplied } = scope;
  const users = useUsers(table.query);
  // Only the stable mutate functions go into the columns: new columns remount every cell.
  const { mutate: changeStatus } = useUpdateUserStatus();
  const { mutate: removeUser } = useDeleteUser();
  const [dialog, setDialog] = useState<UserDialogState>(null);

  const columns = useMemo(
    () =>
      usersColumns(t, {
        selfId,
        isMerchantImplied,
        onEdit: (user) => setDialog({ mode: 'edit', user }),
        onToggleStatus: (user) =>
          void toggleStatusWithConfirm(user.username, user.status, (status, callbacks) =>
            changeStatus({ id: user.user_id, status }, callbacks),
          ),
        onDelete: (user) =>
          void deleteWithConfirm(user.username, (callbacks) => removeUser(user.user_id, callbacks)),
      }),
    [t, selfId, isMerchantImplied, changeStatus, removeUser],
  );

  return (
    <>
      <PageHeader
        title={t('nav.users')}
        description={t(isMerchantImplied ? 'users.description_merchant' : 'users.description')}
        actions={
          <Button onClick={() => setDialog({ mode: 'create' })}>
            <Plus aria-hidden />
            {t('users.add')}
          </Button>
        }
      />
      <DataTable
        label={t('users.table_label')}
        columns={columns}
        query={users}
        paging={table}
        getRowId={(user) => String(user.user_id)}
        toolbar={
          <DataTableToolbar table={table}>
            <DataTableSearch
              table={table}
              filterKey="search"
              placeholder={t('users.search_placeholder')}
            />
            <DataTableFacetedFilter
              table={table}
              filterKey="type"
              title={t('users.type')}
              options={scope.types.map((type) => ({
                value: type,
                label: t(`users.types.${type}`),
              }))}
            />
            <DataTableFacetedFilter
              table={table}
              filterKey="status"
              title={t('table.status')}
              options={STATUSES.map((status) => ({
                value: status,
                label: t(`statuses.${status}`),
              }))}
            />
            {!isMerchantImplied && (
              <DataTableFacetedFilter
                table={table}
                filterKey="merchant_id"
                title={t('users.merchant')}
                options={merchantOptions}
              />
            )}
          </DataTableToolbar>
        }
      />
      <UserFormDialog
        state={dialog}
        onClose={() => setDialog(null)}
        merchantOptions={merchantOptions}
        scope={scope}
      />
    </>
  );
}
