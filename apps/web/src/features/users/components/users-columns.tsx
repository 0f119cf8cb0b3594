import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { KeyRound, Mail, Pencil, Power, PowerOff, ShieldOff, Trash2 } from 'lucide-react';
import type { ManagedUser } from '@app/contract';
import { DataTableRowActions, DateTime, StatusBadge } from '@/components/data-table';
import { InvitationBadge } from '@/components/forms/invitation-link';

export interface UserRowHandlers {
  onEdit: (user: ManagedUser) => void;
  onToggleStatus: (user: ManagedUser) => void;
  onDelete: (user: ManagedUser) => void;
  /** A new set-password link, for an account without a password (decision 0025). */
  onResendInvitation: (user: ManagedUser) => void;
  /** The admin's sign-in help for another user (users.sign_in_reset); absent for anyone else. */
  onResetMfa?: (user: ManagedUser) => void;
  onClearSignInThrottle?: (user: ManagedUser) => void;
  /** The signed-in admin, who may not deactivate or delete itself. */
  selfId: number | undefined;
  /** A merchant admin: every row is its own merchant's staff, which it edits. */
  isMerchantImplied?: boolean;
}

/**
 * Spec 5: among merchant users the admin edits only the merchant admin; a merchant admin edits
 * its own supervisors and staff (DESIGN 2).
 */
export const isEditable = (user: ManagedUser, isMerchantImplied = false) =>
  isMerchantImplied || (user.type !== 'merchant_supervisor' && user.type !== 'merchant_staff');

export function usersColumns(t: TFunction, handlers: UserRowHandlers): ColumnDef<ManagedUser>[] {
  const merchantColumn: ColumnDef<ManagedUser>[] = handlers.isMerchantImplied
    ? []
    : [
        {
          accessorKey: 'merchant_name',
          header: t('users.merchant'),
          cell: ({ row }) => row.original.merchant_name ?? '—',
        },
      ];
  return [
    { accessorKey: 'username', header: t('users.username'), meta: { className: 'font-medium' } },
    {
      accessorKey: 'email',
      header: t('users.email'),
      cell: ({ row }) => row.original.email ?? '—',
    },
    {
      accessorKey: 'type',
      header: t('users.type'),
      cell: ({ row }) => t(`users.types.${row.original.type}`),
    },
    ...merchantColumn,
    {
      accessorKey: 'status',
      header: t('table.status'),
      cell: ({ row }) => (
        <span className="inline-flex flex-wrap items-center gap-1">
          <StatusBadge status={row.original.status} />
          <InvitationBadge invitation={row.original.invitation} />
        </span>
      ),
    },
    {
      accessorKey: 'created_at',
      header: t('table.created_at'),
      cell: ({ row }) => <DateTime value={row.original.created_at} />,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('table.actions')}</span>,
      meta: { className: 'w-12 text-right', title: t('table.actions'), pinned: 'right' },
      cell: ({ row }) => {
        const user = row.original;
        const isSelf = user.user_id === handlers.selfId;
        const isActive = user.status === 'active';
        const canEdit = isEditable(user, handlers.isMerchantImplied);
        return (
          <DataTableRowActions
            name={user.username}
            actions={[
              {
                label: t('actions.edit'),
                icon: <Pencil aria-hidden />,
                onSelect: () => handlers.onEdit(user),
                disabled: !canEdit,
                hint: canEdit ? undefined : t('ONLY_MERCHANT_ADMIN_UPDATABLE', { ns: 'errors' }),
              },
              ...(user.invitation
                ? [
                    {
                      label: t('invitations.resend'),
                      icon: <Mail aria-hidden />,
                      onSelect: () => handlers.onResendInvitation(user),
                    },
                  ]
                : []),
              {
                label: isActive ? t('actions.deactivate') : t('actions.activate'),
                icon: isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />,
                onSelect: () => handlers.onToggleStatus(user),
                disabled: isSelf && isActive,
                hint: isSelf && isActive ? t('users.self_hint') : undefined,
              },
              ...(handlers.onClearSignInThrottle
                ? [
                    {
                      label: t('users.clear_throttle'),
                      icon: <KeyRound aria-hidden />,
                      onSelect: () => handlers.onClearSignInThrottle?.(user),
                    },
                  ]
                : []),
              ...(handlers.onResetMfa
                ? [
                    {
                      label: t('users.reset_mfa'),
                      icon: <ShieldOff aria-hidden />,
                      onSelect: () => handlers.onResetMfa?.(user),
                      disabled: isSelf,
                      hint: isSelf ? t('users.self_hint') : undefined,
                    },
                  ]
                : []),
              {
                label: t('actions.delete'),
                icon: <Trash2 aria-hidden />,
                destructive: true,
                onSelect: () => handlers.onDelete(user),
                disabled: isSelf,
                hint: isSelf ? t('users.self_hint') : undefined,
              },
            ]}
          />
        );
      },
    },
  ];
}
