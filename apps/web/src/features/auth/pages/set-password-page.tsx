import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Coins, LoaderCircle } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { passwordSchema } from '@app/contract';
import { passwordsMatch, PasswordFields } from '@/components/forms/account-fields';
import { DeferredLanguageSwitch } from '@/components/layout/deferred-language-switch';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form } from '@/components/ui/form';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-error';
import { errorMessageLines } from '@/lib/error-display';
import { formResolver } from '@/lib/form-resolver';
import { applyServerErrors } from '@/lib/forms';
import { formatDateTime } from '@/lib/format';
import { useAcceptInvitation, useInvitation } from '../api/invitations';

export const setPasswordFormSchema = z
  .object({ password: passwordSchema, confirm_password: z.string() })
  .refine((values) => values.password === values.confirm_password, passwordsMatch);

/** The token of `#token=…`: kept in the fragment, which no request carries to a server. */
const tokenOf = (hash: string) => new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';

/**
 * /set-password#token=… (public, decision 0025): the person an admin invited chooses their
 * password with the one-time link, then signs in.
 */
export function SetPasswordPage() {
  const { t } = useTranslation();
  const { hash } = useLocation();
  const token = useMemo(() => tokenOf(hash), [hash]);
  const invitation = useInvitation(token);
  const [doneFor, setDoneFor] = useState<string | null>(null);

  let body;
  if (doneFor !== null) {
    body = (
      <div role="status" className="grid gap-4 text-sm">
        <p>{t('invitations.page_done', { name: doneFor })}</p>
        <Button asChild>
          <Link to={paths.login.getHref()}>{t('invitations.page_sign_in')}</Link>
        </Button>
      </div>
    );
  } else if (token === '' || invitation.isError) {
    const message =
      token === '' ||
      (isApiError(invitation.error) && invitation.error.code === 'INVITATION_INVALID')
        ? t('INVITATION_INVALID', { ns: 'errors' })
        : errorMessageLines(invitation.error).join(' ');
    body = (
      <div className="grid gap-4 text-sm">
        <p role="alert" className="text-destructive">
          {message}
        </p>
        <Button asChild variant="outline">
          <Link to={paths.login.getHref()}>{t('invitations.page_sign_in')}</Link>
        </Button>
      </div>
    );
  } else if (!invitation.data) {
    body = (
      <div aria-busy="true" className="grid gap-3">
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-9 w-full" />
        <Skeleton className="h-9 w-full" />
      </div>
    );
  } else {
    body = (
      <SetPasswordForm
        token={token}
        username={invitation.data.username}
        expiresAt={invitation.data.expires_at}
        onDone={setDoneFor}
      />
    );
  }

  return (
    <div className="relative flex min-h-svh items-center justify-center bg-muted/40 p-4">
      <div className="absolute top-4 right-4">
        <DeferredLanguageSwitch />
      </div>
      <main className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-2 text-lg font-semibold">
          <span className="flex size-8 items-center justify-center rounded-md bg-primary text-primary-foreground">
            <Coins className="size-5" aria-hidden />
          </span>
          {t('app.name')}
        </div>
        <Card>
          <CardHeader>
            <CardTitle>
              <h1>{t('invitations.page_title')}</h1>
            </CardTitle>
            <CardDescription>{t('invitations.page_description')}</CardDescription>
          </CardHeader>
          <CardContent>{body}</CardContent>
        </Card>
      </main>
    </div>
  );
}

function SetPasswordForm({
  token,
  username,
  expiresAt,
  onDone,
}: {
  token: string;
  username: string;
  expiresAt: string;
  onDone: (username: string) => void;
}) {
  const { t } = useTranslation();
  const accept = useAcceptInvitation();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<
    z.input<typeof setPasswordFormSchema>,
    unknown,
    z.output<typeof setPasswordFormSchema>
  >({
    resolver: formResolver(setPasswordFormSchema),
    defaultValues: { password: '', confirm_password: '' },
  });
  const onSubmit = form.handleSubmit((values) => {
    setProblem(null);
    accept.mutate(
      { token, ...values },
      {
        onSuccess: (info) => onDone(info.username),
        onError: (error) => {
          if (!applyServerErrors(form, error, { PASSWORD_NOT_MATCH: 'confirm_password' })) {
            setProblem(errorMessageLines(error).join(' '));
          }
        },
      },
    );
  });
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <p className="text-sm">
          {t('invitations.page_for', { name: username, at: formatDateTime(expiresAt) })}
        </p>
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={username}
          readOnly
          hidden
        />
        <PasswordFields isEdit={false} />
        {problem && (
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        )}
        <Button type="submit" disabled={accept.isPending}>
          {accept.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          {t('invitations.page_submit')}
        </Button>
      </form>
    </Form>
  );
}
