import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PasswordInput } from './password-input';
import { StatusSelect } from './status-select';

/**
 * The fields every account form shares (users, company admins): username, email, password and
 * its repeat, status. One place, so the user and company-admin forms, create and edit alike, ask
 * the same way and speak with one voice (issue 19 item 6).
 */

/** Codes of a failed account save that belong to one field (besides the toast). */
export const ACCOUNT_ERROR_FIELDS = {
  USERNAME_EXISTS: 'username',
  USERNAME_ALREADY_EXISTS: 'username',
  USERNAME_OR_EMAIL_ALREADY_EXISTS: 'username',
  EMAIL_EXISTS: 'email',
  EMAIL_ALREADY_EXISTS: 'email',
  PASSWORD_NOT_MATCH: 'confirm_password',
} as const;

/** The repeat must equal the password; checked even while other fields are wrong. */
export const passwordsMatch = {
  path: ['confirm_password'],
  message: 'v.password_match',
  when: () => true,
};

/**
 * How a new account gets its password: a one-time link the person opens themselves (the
 * default), or one the admin types now.
 */
export type PasswordMode = 'invite' | 'password';

export function UsernameField() {
  const { t } = useTranslation();
  return (
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
  );
}

export function EmailField({ label, description }: { label?: string; description?: string }) {
  const { t } = useTranslation();
  return (
    <FormField
      name="email"
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label ?? t('users.email')}</FormLabel>
          <FormControl>
            <Input type="email" autoComplete="off" {...field} />
          </FormControl>
          {description && <FormDescription>{description}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

/** Password and its repeat; on edit, an empty password keeps the current one. */
export function PasswordFields({ isEdit }: { isEdit: boolean }) {
  const { t } = useTranslation();
  return (
    <>
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
    </>
  );
}

/**
 * One's own current password, asked for when one edits oneself: the server sets one's own new
 * password only with it (decision 0070); left empty it is not needed to change anything else.
 */
export function CurrentPasswordField() {
  const { t } = useTranslation();
  return (
    <FormField
      name="current_password"
      render={({ field }) => (
        <FormItem>
          <FormLabel>{t('users.current_password')}</FormLabel>
          <FormControl>
            <PasswordInput autoComplete="current-password" {...field} />
          </FormControl>
          <FormDescription>{t('users.current_password_hint')}</FormDescription>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

export function StatusField() {
  const { t } = useTranslation();
  return (
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
  );
}

/** Invite (a one-time link) or type a password now; shown on create only. */
export function PasswordModeChoice({
  value,
  onChange,
}: {
  value: PasswordMode;
  onChange: (mode: PasswordMode) => void;
}) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">{t('invitations.mode_legend')}</legend>
      {(['invite', 'password'] as const).map((mode) => (
        <label key={mode} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name={name}
            value={mode}
            className="mt-0.5 size-4 accent-primary"
            checked={value === mode}
            onChange={() => onChange(mode)}
          />
          <span className="grid gap-0.5">
            <span>{t(`invitations.mode_${mode}`)}</span>
            <span className="text-muted-foreground">{t(`invitations.mode_${mode}_hint`)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Username, email, then either the password pair (typed now, or on edit) or nothing (an
 * invitation sets it), then status.
 */
export function AccountFields({
  isEdit,
  passwordMode = 'password',
}: {
  isEdit: boolean;
  passwordMode?: PasswordMode;
}) {
  return (
    <>
      <UsernameField />
      <EmailField />
      {(isEdit || passwordMode === 'password') && <PasswordFields isEdit={isEdit} />}
    </>
  );
}
