import { useMemo, useState } from 'react';
import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { can, ROLE_SCOPE, userTypesManagedBy, type Invitation } from '@app/contract';
import {
  DataTableFacetedFilter,
  DataTableStatusFilter,
  type Option,
  type TableSearchOf,
} from '@/components/data-table';
import { InvitationLinkDialog } from '@/components/forms/invitation-link';
import { ListPage } from '@/components/layout/list-page';
import { Button } from '@/components/ui/button';
import { useAuthStore } from '@/lib/auth-store';
import { confirmAlert } from '@/lib/alert-store';
import { deleteWithConfirm, toggleStatusWithConfirm } from '@/lib/status-actions';
import { useClearSignInThrottle } from '../api/clear-sign-in-throttle';
import { useDeleteUser } from '../api/delete-user';
import { useResendUserInvitation } from '../api/resend-user-invitation';
import { useUsers } from '../api/get-users';
import { useResetUserMfa } from '../api/reset-user-mfa';
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
  table: TableSearchOf<typeof usersSearch>;
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
  const { mutate: resetMfa } = useResetUserMfa();
  const { mutate: clearThrottle } = useClearSignInThrottle();
  const { mutate: resendInvitation } = useResendUserInvitation();
  const [resent, setResent] = useState<Invitation | null>(null);
  const canResetSignIn = role !== undefined && can(role, 'users.sign_in_reset');
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
        onResendInvitation: (user) => resendInvitation(user.user_id, { onSuccess: setResent }),
        ...(canResetSignIn && {
          onResetMfa: (user) =>
            void confirmAlert({
              id: `reset-mfa-${user.user_id}`,
              titleKey: 'users.reset_mfa_title',
              messageKey: 'users.reset_mfa_message',
              values: { name: user.username },
              confirmKey: 'users.reset_mfa',
              cancelKey: 'actions.cancel',
              destructive: true,
            }).then((isConfirmed) => {
              if (!isConfirmed) return;
              resetMfa(user.user_id, {
                onSuccess: () => toast.success(t('users.reset_mfa_done', { name: user.username })),
              });
            }),
          onClearSignInThrottle: (user) =>
            void confirmAlert({
              id: `clear-throttle-${user.user_id}`,
              titleKey: 'users.clear_throttle_title',
              messageKey: 'users.clear_throttle_message',
              values: { name: user.username },
              confirmKey: 'users.clear_throttle',
              cancelKey: 'actions.cancel',
            }).then((isConfirmed) => {
              if (!isConfirmed) return;
              clearThrottle(user.user_id, {
                onSuccess: () =>
                  toast.success(t('users.clear_throttle_done', { name: user.username })),
              });
            }),
        }),
      }),
    [
      t,
      selfId,
      isMerchantImplied,
      changeStatus,
      removeUser,
      canResetSignIn,
      resetMfa,
      clearThrottle,
      resendInvitation,
    ],
  );

  return (
    <ListPage
      title={t('nav.users')}
      description={t(isMerchantImplied ? 'users.description_merchant' : 'users.description')}
      actions={
        <Button onClick={() => setDialog({ mode: 'create' })}>
          <Plus aria-hidden />
          {t('users.add')}
        </Button>
      }
      table={table}
      search={{ filterKey: 'search', placeholder: t('users.search_placeholder') }}
      filters={
        <>
          <DataTableFacetedFilter
            table={table}
            filterKey="type"
            title={t('users.type')}
            options={scope.types.map((type) => ({
              value: type,
              label: t(`users.types.${type}`),
            }))}
          />
          <DataTableStatusFilter table={table} />
          {!isMerchantImplied && (
            <DataTableFacetedFilter
              table={table}
              filterKey="merchant_id"
              title={t('users.merchant')}
              options={merchantOptions}
            />
          )}
        </>
      }
      label={t('users.table_label')}
      columns={columns}
      query={users}
      tableId="users"
      getRowId={(user) => String(user.user_id)}
    >
      <UserFormDialog
        state={dialog}
        onClose={() => setDialog(null)}
        merchantOptions={merchantOptions}
        scope={scope}
      />
      <InvitationLinkDialog invitation={resent} onClose={() => setResent(null)} />
    </ListPage>
  );
}
