import { useMemo, useRef, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { ArrowLeft, Mail, Pencil, Plus, Power, PowerOff } from 'lucide-react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  createCompanyAdminBodySchema,
  inviteCompanyAdminBodySchema,
  updateCompanyAdminBodySchema,
  type Company,
  type Invitation,
  type ManagedUser,
  type Status,
} from '@app/contract';
import {
  DataTable,
  DataTableRowActions,
  StatusBadge,
  useLocalPaging,
} from '@/components/data-table';
import {
  ACCOUNT_ERROR_FIELDS,
  AccountFields,
  PasswordModeChoice,
  passwordsMatch,
  StatusField,
  type PasswordMode,
} from '@/components/forms/account-fields';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { InvitationBadge, InvitationLink } from '@/components/forms/invitation-link';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { formResolver } from '@/lib/form-resolver';
import { applyServerErrors } from '@/lib/forms';
import { useNotifyDone } from '@/lib/notify';
import { toggleStatusWithConfirm } from '@/lib/status-actions';
import { useCreateCompanyAdmin } from '../api/create-company-admin';
import { useCompanyAdmins } from '../api/get-company-admins';
import { useInviteCompanyAdmin } from '../api/invite-company-admin';
import { useResendCompanyAdminInvitation } from '../api/resend-company-admin-invitation';
import { useUpdateCompanyAdmin } from '../api/update-company-admin';
import { useUpdateCompanyAdminStatus } from '../api/update-company-admin-status';

export const createCompanyAdminFormSchema = createCompanyAdminBodySchema
  .omit({ company_id: true })
  .extend({ confirm_password: z.string() })
  .refine((values) => values.password === values.confirm_password, passwordsMatch);

/** An invitation: the create body without the password, which its owner sets. */
export const inviteCompanyAdminFormSchema = inviteCompanyAdminBodySchema.omit({ company_id: true });

/** What the one form holds, whichever schema checks it. */
interface AdminFormValues {
  username: string;
  email: string;
  password?: string | undefined;
  confirm_password: string;
  status: Status;
}

export const editCompanyAdminFormSchema = updateCompanyAdminBodySchema
  .extend({ confirm_password: z.string() })
  .refine((values) => (values.password ?? '') === values.confirm_password, passwordsMatch);

/** What the modal shows: the list, or the form (spec 2: type defaulting to create). */
type View =
  | { mode: 'list' }
  | { mode: 'create' }
  | { mode: 'edit'; admin: ManagedUser }
  | { mode: 'invited'; invitation: Invitation; resent?: boolean };

/** The company admin modal: a company's admins, created and edited in place. */
export function CompanyAdminsDialog({
  company,
  onClose,
  startWith = 'list',
}: {
  company: Company | null;
  onClose: () => void;
  /** Open straight at the new-admin form (the next step after creating a company). */
  startWith?: 'list' | 'create';
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={company !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{t('company_admins.title')}</DialogTitle>
          <DialogDescription>
            {company ? t('company_admins.description', { name: company.name }) : null}
          </DialogDescription>
        </DialogHeader>
        {company && <CompanyAdminsBody company={company} startWith={startWith} />}
      </DialogContent>
    </Dialog>
  );
}

function CompanyAdminsBody({
  company,
  startWith,
}: {
  company: Company;
  startWith: 'list' | 'create';
}) {
  const { t } = useTranslation();
  const [view, setView] = useState<View>({ mode: startWith });
  if (view.mode === 'list') {
    return (
      <CompanyAdminsList
        company={company}
        onCreate={() => setView({ mode: 'create' })}
        onEdit={(admin) => setView({ mode: 'edit', admin })}
        onResent={(invitation) => setView({ mode: 'invited', invitation, resent: true })}
      />
    );
  }
  const back = () => setView({ mode: 'list' });
  return (
    <div className="grid gap-4">
      <div className="flex items-center gap-2">
        <Button variant="ghost" size="sm" onClick={back}>
          <ArrowLeft aria-hidden />
          {t('actions.back')}
        </Button>
        <h3 className="font-medium">
          {view.mode === 'edit'
            ? t('company_admins.edit_title', { name: view.admin.username })
            : view.mode === 'invited' && view.resent
              ? t('invitations.resent_title')
              : t('company_admins.create_title')}
        </h3>
      </div>
      {view.mode === 'invited' ? (
        <InvitationLink invitation={view.invitation} onDone={back} resent={view.resent} />
      ) : (
        <CompanyAdminForm
          key={view.mode === 'edit' ? view.admin.user_id : 'create'}
          company={company}
          admin={view.mode === 'edit' ? view.admin : undefined}
          onDone={back}
          onInvited={(invitation) => setView({ mode: 'invited', invitation })}
        />
      )}
    </div>
  );
}

function CompanyAdminsList({
  company,
  onCreate,
  onEdit,
  onResent,
}: {
  company: Company;
  onCreate: () => void;
  onEdit: (admin: ManagedUser) => void;
  /** A new link was issued for an admin without a password: show it. */
  onResent: (invitation: Invitation) => void;
}) {
  const { t } = useTranslation();
  const paging = useLocalPaging();
  const admins = useCompanyAdmins({
    company_id: company.id,
    page: paging.page,
    page_size: paging.pageSize,
  });
  const { mutate: changeStatus } = useUpdateCompanyAdminStatus();
  const { mutate: resendInvitation } = useResendCompanyAdminInvitation();

  const columns = useMemo<ColumnDef<ManagedUser>[]>(
    () => [
      { accessorKey: 'username', header: t('users.username'), meta: { className: 'font-medium' } },
      {
        accessorKey: 'email',
        header: t('users.email'),
        cell: ({ row }) => row.original.email ?? '—',
      },
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
        id: 'actions',
        header: () => <span className="sr-only">{t('table.actions')}</span>,
        meta: { className: 'w-12 text-right' },
        cell: ({ row }) => {
          const admin = row.original;
          const isActive = admin.status === 'active';
          return (
            <DataTableRowActions
              name={admin.username}
              actions={[
                {
                  label: t('actions.edit'),
                  icon: <Pencil aria-hidden />,
                  onSelect: () => onEdit(admin),
                },
                ...(admin.invitation
                  ? [
                      {
                        label: t('invitations.resend'),
                        icon: <Mail aria-hidden />,
                        onSelect: () => resendInvitation(admin.user_id, { onSuccess: onResent }),
                      },
                    ]
                  : []),
                {
                  label: isActive ? t('actions.deactivate') : t('actions.activate'),
                  icon: isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />,
                  destructive: isActive,
                  onSelect: () =>
                    void toggleStatusWithConfirm(
                      admin.username,
                      admin.status,
                      (status, callbacks) =>
                        changeStatus({ userId: admin.user_id, status }, callbacks),
                    ),
                },
              ]}
            />
          );
        },
      },
    ],
    [t, onEdit, changeStatus, resendInvitation, onResent],
  );

  return (
    <div className="grid gap-3">
      <div className="flex justify-end">
        <Button size="sm" onClick={onCreate}>
          <Plus aria-hidden />
          {t('company_admins.add')}
        </Button>
      </div>
      <DataTable
        label={t('company_admins.table_label', { name: company.name })}
        columns={columns}
        query={admins}
        paging={paging}
        getRowId={(admin) => String(admin.user_id)}
        emptyMessage={t('company_admins.empty')}
        skeletonRows={3}
      />
    </div>
  );
}

/**
 * The company-admin form, for creating and editing alike (issue 19 item 6): the shared account
 * fields; on create, an invitation by default or a password typed now.
 */
function CompanyAdminForm({
  company,
  admin,
  onDone,
  onInvited,
}: {
  company: Company;
  admin?: ManagedUser;
  onDone: () => void;
  onInvited: (invitation: Invitation) => void;
}) {
  const { t } = useTranslation();
  const notifyDone = useNotifyDone();
  const createAdmin = useCreateCompanyAdmin();
  const inviteAdmin = useInviteCompanyAdmin();
  const updateAdmin = useUpdateCompanyAdmin();
  const isEdit = admin !== undefined;
  const [passwordMode, setPasswordMode] = useState<PasswordMode>('invite');
  const modeRef = useRef(passwordMode);
  const choosePasswordMode = (mode: PasswordMode) => {
    modeRef.current = mode;
    setPasswordMode(mode);
  };
  const resolver = useMemo(() => {
    const create = formResolver<AdminFormValues>(createCompanyAdminFormSchema);
    const invite = formResolver<AdminFormValues>(inviteCompanyAdminFormSchema);
    const edit = formResolver<AdminFormValues>(editCompanyAdminFormSchema);
    // Each schema is strict and is handed only its own fields (formResolver): an invitation no
    // password.
    return ((values, context, options) =>
      (isEdit ? edit : modeRef.current === 'password' ? create : invite)(
        values,
        context,
        options,
      )) as Resolver<AdminFormValues, unknown, AdminFormValues>;
  }, [isEdit]);
  const form = useForm<AdminFormValues, unknown, AdminFormValues>({
    resolver,
    defaultValues: {
      username: admin?.username ?? '',
      email: admin?.email ?? '',
      password: '',
      confirm_password: '',
      status: admin?.status ?? 'active',
    },
  });
  const onError = (error: unknown) => applyServerErrors(form, error, ACCOUNT_ERROR_FIELDS);
  const onSubmit = form.handleSubmit(({ password, confirm_password, ...rest }) => {
    if (admin) {
      updateAdmin.mutate(
        { userId: admin.user_id, body: password ? { ...rest, password, confirm_password } : rest },
        {
          onSuccess: () => {
            notifyDone(t('toasts.user_updated', { name: rest.username }));
            onDone();
          },
          onError,
        },
      );
    } else if (passwordMode === 'invite') {
      inviteAdmin.mutate({ ...rest, company_id: company.id }, { onSuccess: onInvited, onError });
    } else {
      createAdmin.mutate(
        { ...rest, password: password ?? '', confirm_password, company_id: company.id },
        {
          onSuccess: () => {
            notifyDone(t('toasts.admin_created', { name: rest.username, company: company.name }));
            onDone();
          },
          onError,
        },
      );
    }
  });
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        {!isEdit && <PasswordModeChoice value={passwordMode} onChange={choosePasswordMode} />}
        <AccountFields isEdit={isEdit} passwordMode={passwordMode} />
        <StatusField />
        <FormDialogFooter
          isPending={createAdmin.isPending || inviteAdmin.isPending || updateAdmin.isPending}
          submitLabel={
            isEdit
              ? undefined
              : passwordMode === 'invite'
                ? t('invitations.submit')
                : t('actions.create')
          }
          onCancel={onDone}
        />
      </form>
    </Form>
  );
}
