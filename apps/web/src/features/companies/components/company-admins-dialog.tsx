import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { ArrowLeft, Pencil, Plus, Power, PowerOff } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  createCompanyAdminBodySchema,
  updateCompanyAdminBodySchema,
  type Company,
  type ManagedUser,
} from '@app/contract';
import {
  DataTable,
  DataTableRowActions,
  StatusBadge,
  useLocalPaging,
} from '@/components/data-table';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { PasswordInput } from '@/components/forms/password-input';
import { StatusSelect } from '@/components/forms/status-select';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { applyServerErrors } from '@/lib/forms';
import { toggleStatusWithConfirm } from '@/lib/status-actions';
import { useCreateCompanyAdmin } from '../api/create-company-admin';
import { useCompanyAdmins } from '../api/get-company-admins';
import { useUpdateCompanyAdmin } from '../api/update-company-admin';
import { useUpdateCompanyAdminStatus } from '../api/update-company-admin-status';

const ADMIN_ERROR_FIELDS = {
  USERNAME_EXISTS: 'username',
  USERNAME_ALREADY_EXISTS: 'username',
  USERNAME_OR_EMAIL_ALREADY_EXISTS: 'username',
  EMAIL_EXISTS: 'email',
  EMAIL_ALREADY_EXISTS: 'email',
  PASSWORD_NOT_MATCH: 'confirm_password',
} as const;

const passwordsMatch = {
  path: ['confirm_password'],
  message: 'v.password_match',
  when: () => true,
};

export const createCompanyAdminFormSchema = createCompanyAdminBodySchema
  .omit({ company_id: true })
  .extend({ confirm_password: z.string() })
  .refine((values) => values.password === values.confirm_password, passwordsMatch);

export const editCompanyAdminFormSchema = updateCompanyAdminBodySchema
  .extend({ confirm_password: z.string() })
  .refine((values) => (values.password ?? '') === values.confirm_password, passwordsMatch);

/** What the modal shows: the list, or the form (spec 2: type defaulting to create). */
type View = { mode: 'list' } | { mode: 'create' } | { mode: 'edit'; admin: ManagedUser };

/** The company admin modal: a company's admins, created and edited in place. */
export function CompanyAdminsDialog({
  company,
  onClose,
}: {
  company: Company | null;
  onClose: () => void;
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
        {company && <CompanyAdminsBody company={company} />}
      </DialogContent>
    </Dialog>
  );
}

function CompanyAdminsBody({ company }: { company: Company }) {
  const { t } = useTranslation();
  const [view, setView] = useState<View>({ mode: 'list' });
  if (view.mode === 'list') {
    return (
      <CompanyAdminsList
        company={company}
        onCreate={() => setView({ mode: 'create' })}
        onEdit={(admin) => setView({ mode: 'edit', admin })}
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
          {view.mode === 'create'
            ? t('company_admins.create_title')
            : t('company_admins.edit_title', { name: view.admin.username })}
        </h3>
      </div>
      {view.mode === 'create' ? (
        <CreateCompanyAdminForm company={company} onDone={back} />
      ) : (
        <EditCompanyAdminForm admin={view.admin} onDone={back} />
      )}
    </div>
  );
}

function CompanyAdminsList({
  company,
  onCreate,
  onEdit,
}: {
  company: Company;
  onCreate: () => void;
  onEdit: (admin: ManagedUser) => void;
}) {
  const { t } = useTranslation();
  const paging = useLocalPaging();
  const admins = useCompanyAdmins({
    company_id: company.id,
    page: paging.page,
    page_size: paging.pageSize,
  });
  const { mutate: changeStatus } = useUpdateCompanyAdminStatus();

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
        cell: ({ row }) => <StatusBadge status={row.original.status} />,
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
    [t, onEdit, changeStatus],
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

function AdminAccountFields({ isEdit }: { isEdit: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <FormField
        name="username"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t('users.username')}</FormLabel>
            <FormControl>
              <Input autoComplete="off" autoFocus {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        name="email"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t('users.email')}</FormLabel>
            <FormControl>
              <Input type="email" autoComplete="off" {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        name="password"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t('users.password')}</FormLabel>
            <FormControl>
              <PasswordInput autoComplete="new-password" {...field} />
            </FormControl>
            {isEdit && <FormDescription>{t('users.password_keep_hint')}</FormDescription>}
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        name="confirm_password"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t('users.confirm_password')}</FormLabel>
            <FormControl>
              <PasswordInput autoComplete="new-password" {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        name="status"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t('table.status')}</FormLabel>
            <StatusSelect value={field.value} onChange={field.onChange} />
            <FormMessage />
          </FormItem>
        )}
      />
    </>
  );
}

function CreateCompanyAdminForm({ company, onDone }: { company: Company; onDone: () => void }) {
  const { t } = useTranslation();
  const createAdmin = useCreateCompanyAdmin();
  const form = useForm<
    z.input<typeof createCompanyAdminFormSchema>,
    unknown,
    z.output<typeof createCompanyAdminFormSchema>
  >({
    resolver: zodResolver(createCompanyAdminFormSchema),
    defaultValues: {
      username: '',
      email: '',
      password: '',
      confirm_password: '',
      status: 'active',
    },
  });
  const onSubmit = form.handleSubmit((values) =>
    createAdmin.mutate(
      { ...values, company_id: company.id },
      {
        onSuccess: () => {
          toast.success(t('toasts.created'));
          onDone();
        },
        onError: (error) => applyServerErrors(form, error, ADMIN_ERROR_FIELDS),
      },
    ),
  );
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <AdminAccountFields isEdit={false} />
        <FormDialogFooter
          isPending={createAdmin.isPending}
          submitLabel={t('actions.create')}
          onCancel={onDone}
        />
      </form>
    </Form>
  );
}

function EditCompanyAdminForm({ admin, onDone }: { admin: ManagedUser; onDone: () => void }) {
  const { t } = useTranslation();
  const updateAdmin = useUpdateCompanyAdmin();
  const form = useForm<
    z.input<typeof editCompanyAdminFormSchema>,
    unknown,
    z.output<typeof editCompanyAdminFormSchema>
  >({
    resolver: zodResolver(editCompanyAdminFormSchema),
    defaultValues: {
      username: admin.username,
      email: admin.email ?? '',
      password: '',
      confirm_password: '',
      status: admin.status,
    },
  });
  const onSubmit = form.handleSubmit(({ password, confirm_password, ...rest }) =>
    updateAdmin.mutate(
      { userId: admin.user_id, body: password ? { ...rest, password, confirm_password } : rest },
      {
        onSuccess: () => {
          toast.success(t('toasts.updated'));
          onDone();
        },
        onError: (error) => applyServerErrors(form, error, ADMIN_ERROR_FIELDS),
      },
    ),
  );
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <AdminAccountFields isEdit />
        <FormDialogFooter isPending={updateAdmin.isPending} onCancel={onDone} />
      </form>
    </Form>
  );
}
