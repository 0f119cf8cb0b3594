import { useMemo, useRef, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  createUserBodySchema,
  inviteUserBodySchema,
  isMerchantRole,
  MERCHANT_ROLES,
  PLATFORM_USER_TYPES,
  updateUserBodySchema,
  type Invitation,
  type ManagedUser,
  type ManagedUserType,
  type Status,
} from '@app/contract';
import type { Option } from '@/components/data-table';
import {
  ACCOUNT_ERROR_FIELDS,
  AccountFields,
  CurrentPasswordField,
  PasswordModeChoice,
  passwordsMatch,
  StatusField,
  type PasswordMode,
} from '@/components/forms/account-fields';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { InvitationLink } from '@/components/forms/invitation-link';
import { ReadOnlyField } from '@/components/forms/read-only-field';
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
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import {
  Select,
  SelectContent,
  SelectGroup,
  SelectItem,
  SelectLabel,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { useAuthStore } from '@/lib/auth-store';
import { formResolver } from '@/lib/form-resolver';
import { applyServerErrors } from '@/lib/forms';
import { useNotifyDone } from '@/lib/notify';
import { useCreateUser } from '../api/create-user';
import { useInviteUser } from '../api/invite-user';
import { useUpdateUser } from '../api/update-user';

/**
 * Codes of a failed save that belong to one field (besides the toast); one's own new password
 * needs the current one (decision 0070).
 */
export const USER_ERROR_FIELDS = {
  ...ACCOUNT_ERROR_FIELDS,
  CURRENT_PASSWORD_REQUIRED: 'current_password',
  CURRENT_PASSWORD_INVALID: 'current_password',
} as const;

/**
 * The contract's create body plus the password repeat (spec 5: the passwords must match). The
 * admin names the merchant of a merchant user; a merchant admin's own merchant is implied.
 */
export const createFormSchemaFor = (isMerchantImplied: boolean) =>
  createUserBodySchema
    .safeExtend({ confirm_password: z.string() })
    .refine((values) => values.password === values.confirm_password, passwordsMatch)
    .refine(
      (values) =>
        isMerchantImplied || !isMerchantRole(values.type) || values.merchant_id !== undefined,
      { path: ['merchant_id'], message: 'v.merchant_required', when: () => true },
    );

/** An invitation: the create body without the password, which its owner sets. */
export const inviteFormSchemaFor = (isMerchantImplied: boolean) =>
  inviteUserBodySchema.refine(
    (values) =>
      isMerchantImplied || !isMerchantRole(values.type) || values.merchant_id !== undefined,
    { path: ['merchant_id'], message: 'v.merchant_required', when: () => true },
  );

/** The contract's edit body: an empty password keeps the current one. */
export const editFormSchema = updateUserBodySchema
  .safeExtend({ confirm_password: z.string() })
  .refine((values) => (values.password ?? '') === values.confirm_password, passwordsMatch);

/** What the one form holds, whichever schema checks it. */
type UserFormInput = Partial<z.input<ReturnType<typeof createFormSchemaFor>>> & {
  username: string;
  email: string;
  status: Status;
  confirm_password: string;
  current_password?: string;
};
type UserFormOutput = Partial<z.output<ReturnType<typeof createFormSchemaFor>>> & {
  username: string;
  email: string;
  status: Status;
  confirm_password: string;
  current_password?: string;
};

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
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  // A new opening starts without the last invitation's link.
  if (state === null && invitation !== null) setInvitation(null);
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
        {invitation ? (
          <InvitationLink invitation={invitation} onDone={onClose} />
        ) : (
          state && (
            <UserForm
              key={state.mode === 'edit' ? state.user.user_id : 'create'}
              user={state.mode === 'edit' ? state.user : undefined}
              merchantOptions={merchantOptions}
              scope={scope}
              onDone={onClose}
              onInvited={setInvitation}
            />
          )
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
    // '' (not undefined) while nothing is chosen: Radix shows the placeholder for it, and the
    // Select stays controlled from its first render (no uncontrolled-to-controlled warning).
    <Select value={value ?? ''} onValueChange={(next) => onChange(next as ManagedUserType)}>
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
    <Select value={value} onValueChange={onChange}>
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

/**
 * The user form, for creating and editing alike (issue 19 item 6): the shared account fields;
 * on create, the type (and the merchant of a merchant user) and how the password is set (an
 * invitation by default); on edit, the fixed type and merchant shown read-only.
 */
function UserForm({
  user,
  merchantOptions,
  scope,
  onDone,
  onInvited,
}: {
  user?: ManagedUser;
  merchantOptions: Option[];
  scope: ManagedScope;
  onDone: () => void;
  onInvited: (invitation: Invitation) => void;
}) {
  const { t } = useTranslation();
  const notifyDone = useNotifyDone();
  const createUser = useCreateUser();
  const inviteUser = useInviteUser();
  const updateUser = useUpdateUser();
  const isEdit = user !== undefined;
  // Editing oneself: a new password needs the current one (decision 0070).
  const selfId = useAuthStore((state) => state.user?.user_id);
  const isSelf = isEdit && user.user_id === selfId;
  const { isMerchantImplied } = scope;
  const [passwordMode, setPasswordMode] = useState<PasswordMode>('invite');
  // The resolver reads the mode when it validates, so the password is asked for only when typed now.
  const modeRef = useRef(passwordMode);
  const choosePasswordMode = (mode: PasswordMode) => {
    modeRef.current = mode;
    setPasswordMode(mode);
  };
  const resolver = useMemo(() => {
    const create = formResolver<UserFormInput, UserFormOutput>(
      createFormSchemaFor(isMerchantImplied),
    );
    const invite = formResolver<UserFormInput, UserFormOutput>(
      inviteFormSchemaFor(isMerchantImplied),
    );
    const edit = formResolver<UserFormInput, UserFormOutput>(editFormSchema);
    // Each schema is strict and is handed only its own fields (formResolver).
    return ((values, context, options) =>
      (isEdit ? edit : modeRef.current === 'invite' ? invite : create)(
        values,
        context,
        options,
      )) as Resolver<UserFormInput, unknown, UserFormOutput>;
  }, [isEdit, isMerchantImplied]);
  const form = useForm<UserFormInput, unknown, UserFormOutput>({
    resolver,
    defaultValues: {
      username: user?.username ?? '',
      email: user?.email ?? '',
      password: '',
      confirm_password: '',
      ...(isSelf && { current_password: '' }),
      type: undefined,
      status: user?.status ?? 'active',
      merchant_id: undefined,
    },
  });
  const type = useWatch({ control: form.control, name: 'type' });
  const needsMerchant = !isEdit && Boolean(type) && isMerchantRole(type!) && !isMerchantImplied;
  const merchantLabel = user
    ? (merchantOptions.find((option) => option.value === String(user.merchant_id))?.label ??
      user.merchant_name ??
      '')
    : '';
  const isPending = createUser.isPending || inviteUser.isPending || updateUser.isPending;
  const onError = (error: unknown) => applyServerErrors(form, error, USER_ERROR_FIELDS);

  const onSubmit = form.handleSubmit((values) => {
    const {
      merchant_id: merchantId,
      password,
      confirm_password,
      current_password: currentPassword,
      type: chosen,
      ...rest
    } = values;
    if (user) {
      // An empty password keeps the current one (spec 5): send neither box then. One's own new
      // password goes with the current one.
      const body = password
        ? {
            ...rest,
            password,
            confirm_password,
            ...(isSelf && { current_password: currentPassword ?? '' }),
          }
        : rest;
      updateUser.mutate(
        { id: user.user_id, body },
        {
          onSuccess: () => {
            notifyDone(t('toasts.user_updated', { name: rest.username }));
            onDone();
          },
          onError,
        },
      );
      return;
    }
    const tenant =
      chosen && isMerchantRole(chosen) && !isMerchantImplied ? { merchant_id: merchantId } : {};
    if (passwordMode === 'invite') {
      inviteUser.mutate({ ...rest, type: chosen!, ...tenant }, { onSuccess: onInvited, onError });
      return;
    }
    createUser.mutate(
      { ...rest, type: chosen!, password: password ?? '', confirm_password, ...tenant },
      {
        onSuccess: () => {
          notifyDone(t('toasts.user_created', { name: rest.username }));
          onDone();
        },
        onError,
      },
    );
  });

  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        {!isEdit && <PasswordModeChoice value={passwordMode} onChange={choosePasswordMode} />}
        <AccountFields isEdit={isEdit} passwordMode={passwordMode} />
        {isSelf && <CurrentPasswordField />}
        {user ? (
          <>
            <ReadOnlyField
              label={t('users.type')}
              value={t(`users.types.${user.type}`)}
              description={t('users.type_fixed_hint')}
            />
            {user.merchant_id !== null && (
              <ReadOnlyField label={t('users.merchant')} value={merchantLabel} />
            )}
          </>
        ) : (
          <>
            <FormField
              control={form.control}
              name="type"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('users.type')}</FormLabel>
                  <UserTypeSelect
                    value={field.value}
                    onChange={field.onChange}
                    types={scope.types}
                  />
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
          </>
        )}
        <StatusField />
        <FormDialogFooter
          isPending={isPending}
          submitLabel={
            isEdit
              ? undefined
              : passwordMode === 'invite'
                ? t('invitations.submit')
                : t('actions.create')
          }
        />
      </form>
    </Form>
  );
}
