import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  createUserBodySchema,
  isMerchantRole,
  MERCHANT_ROLES,
  PLATFORM_USER_TYPES,
  updateUserBodySchema,
  type ManagedUser,
  type ManagedUserType,
} from '@app/contract';
import type { Option } from '@/components/data-table';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { PasswordInput } from '@/components/forms/password-input';
import { ReadOnlyField } from '@/components/forms/read-only-field';
import { StatusSelect } from '@/components/forms/status-select';
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
import {
  Select,
  SelectContent,
  SelectGroup,
  SelectItem,
  SelectLabel,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { applyServerErrors } from '@/lib/forms';
import { useCreateUser } from '../api/create-user';
import { useUpdateUser } from '../api/update-user';

/** Codes of a failed save that belong to one field (besides the toast). */
export const USER_ERROR_FIELDS = {
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
  // Checked even while other fields are still wrong, so every message shows at once.
  when: () => true,
};

/**
 * The contract's create body plus the password repeat (spec 5: the passwords must match). The
 * admin names the merchant of a merchant user; a merchant admin's own merchant is implied.
 */
const createFormSchemaFor = (isMerchantImplied: boolean) =>
  createUserBodySchema
    .safeExtend({ confirm_password: z.string() })
    .refine((values) => values.password === values.confirm_password, passwordsMatch)
    .refine(
      (values) =>
        isMerchantImplied || !isMerchantRole(values.type) || values.merchant_id !== undefined,
      { path: ['merchant_id'], message: 'v.merchant_required', when: () => true },
    );
type CreateFormSchema = ReturnType<typeof createFormSchemaFor>;

/** The contract's edit body: an empty password keeps the current one. */
const editFormSchema = updateUserBodySchema
  .safeExtend({ confirm_password: z.string() })
  .refine((values) => (values.password ?? '') === values.confirm_password, passwordsMatch);

type CreateFormInput = z.input<CreateFormSchema>;
type EditFormInput = z.input<typeof editFormSchema>;

export type UserDialogState = { mode: 'create' } | { mode: 'edit'; user: ManagedUser } | null;

/** What the caller manages: its user types, and whether its own merchant is implied. */
export interface ManagedScope {
  types: readonly ManagedUserType[];
  /** A merchant admin: its own merchant, no merchant to choose (DESIGN 2). */
  isMerchantImplied: boolean;
}

/**
 * The user modal of spec 2: create or edit a platform or merchant user (the admin), or a
 * supervisor or staff of the merchant admin's own merchant.
 */
export function UserFormDialog({
  state,
  onClose,
  merchantOptions,
  scope,
}: {
  state: UserDialogState;
  onClose: () => void;
  merchantOptions: Option[];
  scope: ManagedScope;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={state !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>
            {state?.mode === 'edit' ? t('users.edit_title') : t('users.create_title')}
          </DialogTitle>
          <DialogDescription>
            {state?.mode === 'edit'
              ? t('users.edit_description', { name: state.user.username })
              : t('users.create_description')}
          </DialogDescription>
        </DialogHeader>
        {state?.mode === 'create' && (
          <CreateUserForm merchantOptions={merchantOptions} scope={scope} onDone={onClose} />
        )}
        {state?.mode === 'edit' && (
          <EditUserForm user={state.user} merchantOptions={merchantOptions} onDone={onClose} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function UserTypeSelect({
  value,
  onChange,
  types,
}: {
  value: string | undefined;
  onChange: (value: ManagedUserType) => void;
  types: readonly ManagedUserType[];
}) {
  const { t } = useTranslation();
  const groups = [
    {
      label: t('users.platform_group'),
      types: PLATFORM_USER_TYPES.filter((x) => types.includes(x)),
    },
    { label: t('users.merchant_group'), types: MERCHANT_ROLES.filter((x) => types.includes(x)) },
  ].filter((group) => group.types.length > 0);
  return (
    <Select value={value || undefined} onValueChange={(next) => onChange(next as ManagedUserType)}>
      <FormControl>
        <SelectTrigger className="w-full">
          <SelectValue placeholder={t('forms.select_placeholder')} />
        </SelectTrigger>
      </FormControl>
      <SelectContent>
        {groups.map((group) => (
          <SelectGroup key={group.label}>
            <SelectLabel>{group.label}</SelectLabel>
            {group.types.map((type) => (
              <SelectItem key={type} value={type}>
                {t(`users.types.${type}`)}
              </SelectItem>
            ))}
          </SelectGroup>
        ))}
      </SelectContent>
    </Select>
  );
}

function MerchantSelect({
  value,
  onChange,
  options,
}: {
  value: string;
  onChange: (value: string) => void;
  options: Option[];
}) {
  const { t } = useTranslation();
  return (
    <Select value={value || undefined} onValueChange={onChange}>
      <FormControl>
        <SelectTrigger className="w-full">
          <SelectValue placeholder={t('forms.select_placeholder')} />
        </SelectTrigger>
      </FormControl>
      <SelectContent>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

function CreateUserForm({
  merchantOptions,
  scope,
  onDone,
}: {
  merchantOptions: Option[];
  scope: ManagedScope;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const createUser = useCreateUser();
  const { isMerchantImplied } = scope;
  const schema = useMemo(() => createFormSchemaFor(isMerchantImplied), [isMerchantImplied]);
  const form = useForm<CreateFormInput, unknown, z.output<CreateFormSchema>>({
    resolver: zodResolver(schema),
    defaultValues: {
      username: '',
      email: '',
      password: '',
      confirm_password: '',
      type: undefined,
      status: 'active',
      merchant_id: undefined,
    },
  });
  const type = useWatch({ control: form.control, name: 'type' });
  const needsMerchant = Boolean(type) && isMerchantRole(type) && !isMerchantImplied;

  const onSubmit = form.handleSubmit((values) => {
    const { merchant_id: merchantId, ...rest } = values;
    const body =
      isMerchantRole(values.type) && !isMerchantImplied
        ? { ...rest, merchant_id: merchantId }
        : rest;
    createUser.mutate(body, {
      onSuccess: () => {
        toast.success(t('toasts.created'));
        onDone();
      },
      onError: (error) => applyServerErrors(form, error, USER_ERROR_FIELDS),
    });
  });

  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <AccountFields />
        <FormField
          control={form.control}
          name="password"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('users.password')}</FormLabel>
              <FormControl>
                <PasswordInput autoComplete="new-password" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
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
          control={form.control}
          name="type"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('users.type')}</FormLabel>
              <UserTypeSelect value={field.value} onChange={field.onChange} types={scope.types} />
              <FormMessage />
            </FormItem>
          )}
        />
        {needsMerchant && (
          <FormField
            control={form.control}
            name="merchant_id"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('users.merchant')}</FormLabel>
                <MerchantSelect
                  value={field.value === undefined ? '' : String(field.value)}
                  onChange={(value) => field.onChange(Number(value))}
                  options={merchantOptions}
                />
                <FormMessage />
              </FormItem>
            )}
          />
        )}
        <FormField
          control={form.control}
          name="status"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('table.status')}</FormLabel>
              <StatusSelect value={field.value} onChange={field.onChange} />
              <FormMessage />
            </FormItem>
          )}
        />
        <FormDialogFooter isPending={createUser.isPending} submitLabel={t('actions.create')} />
      </form>
    </Form>
  );
}

function EditUserForm({
  user,
  merchantOptions,
  onDone,
}: {
  user: ManagedUser;
  merchantOptions: Option[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const updateUser = useUpdateUser();
  const form = useForm<EditFormInput, unknown, z.output<typeof editFormSchema>>({
    resolver: zodResolver(editFormSchema),
    defaultValues: {
      username: user.username,
      email: user.email ?? '',
      password: '',
      confirm_password: '',
      status: user.status,
    },
  });
  const merchantLabel =
    merchantOptions.find((option) => option.value === String(user.merchant_id))?.label ??
    user.merchant_name ??
    '';

  const onSubmit = form.handleSubmit(({ password, confirm_password, ...rest }) => {
    // An empty password keeps the current one (spec 5): send neither box then.
    const body = password ? { ...rest, password, confirm_password } : rest;
    updateUser.mutate(
      { id: user.user_id, body },
      {
        onSuccess: () => {
          toast.success(t('toasts.updated'));
          onDone();
        },
        onError: (error) => applyServerErrors(form, error, USER_ERROR_FIELDS),
      },
    );
  });

  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <AccountFields />
        <FormField
          control={form.control}
          name="password"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('users.password')}</FormLabel>
              <FormControl>
                <PasswordInput autoComplete="new-password" {...field} />
              </FormControl>
              <FormDescription>{t('users.password_keep_hint')}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
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
        <ReadOnlyField
          label={t('users.type')}
          value={t(`users.types.${user.type}`)}
          description={t('users.type_fixed_hint')}
        />
        {user.merchant_id !== null && (
          <ReadOnlyField label={t('users.merchant')} value={merchantLabel} />
        )}
        <FormField
          control={form.control}
          name="status"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('table.status')}</FormLabel>
              <StatusSelect value={field.value} onChange={field.onChange} />
              <FormMessage />
            </FormItem>
          )}
        />
        <FormDialogFooter isPending={updateUser.isPending} />
      </form>
    </Form>
  );
}

/** Username and email, the same on both forms. */
function AccountFields() {
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
    </>
  );
}
