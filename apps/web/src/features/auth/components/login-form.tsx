import { useEffect, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { LoginBody } from '@app/contract';
import { Button } from '@/components/ui/button';
import {
  Form,
  FormControl,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { isApiError } from '@/lib/api-error';
import { errorMessageLines } from '@/lib/error-display';
import { useLogin } from '../api/login';
import { PasswordInput } from '@/components/forms/password-input';
import { LoginSecondStep } from './login-second-step';

let loading: Promise<Resolver<LoginBody>> | undefined;

/** The resolver's chunk, fetched once (again after a failed fetch). */
function loadResolver(): Promise<Resolver<LoginBody>> {
  loading ??= import('./login-resolver').then(
    ({ loginResolver }) => loginResolver,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * Checks with the contract's loginBodySchema. The schema library is not part of the first load
 * of /login (issue 6): its chunk is fetched as soon as the form is on screen. Should it not come,
 * the server's check of the same schema is the only one.
 */
const resolver: Resolver<LoginBody> = async (values, context, options) => {
  const loaded = await loadResolver().catch(() => null);
  return loaded ? loaded(values, context, options) : { values, errors: {} };
};

/**
 * Username (or email) and password, checked with the contract's loginBodySchema; with TOTP on,
 * then the second step.
 */
export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const { t } = useTranslation();
  const login = useLogin();
  const [step, setStep] = useState<'password' | 'second'>('password');
  const [restartMessage, setRestartMessage] = useState<string | null>(null);
  useEffect(() => {
    // Fetched while the user types; a failed fetch is tried again on submit.
    loadResolver().catch(() => undefined);
  }, []);
  const form = useForm<LoginBody>({
    resolver,
    defaultValues: { username: '', password: '' },
  });

  if (step === 'second') {
    return (
      <LoginSecondStep
        onSuccess={onSuccess}
        onRestart={(message) => {
          form.setValue('password', '');
          setRestartMessage(message);
          setStep('password');
        }}
      />
    );
  }

  return (
    <Form {...form}>
      <form
        noValidate
        className="grid gap-4"
        onSubmit={form.handleSubmit((values) => {
          setRestartMessage(null);
          login.mutate(values, {
            onSuccess: (result) => {
              if (result.mfaRequired) setStep('second');
              else onSuccess();
            },
            onError: (error) => {
              // A wrong username or password is said at the password, which takes the focus;
              // anything else (throttled, inactive, offline) above the fields.
              if (isApiError(error) && error.code === 'INVALID_CREDENTIALS') {
                form.setError(
                  'password',
                  { type: 'server', message: t('INVALID_CREDENTIALS', { ns: 'errors' }) },
                  { shouldFocus: true },
                );
              } else {
                setRestartMessage(errorMessageLines(error).join(' '));
                form.setFocus('username');
              }
            },
          });
        })}
      >
        {restartMessage && (
          <p role="alert" className="text-sm text-destructive">
            {restartMessage}
          </p>
        )}
        <FormField
          control={form.control}
          name="username"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('login.username')}</FormLabel>
              <FormControl>
                <Input autoComplete="username" autoFocus {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="password"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('login.password')}</FormLabel>
              <FormControl>
                <PasswordInput autoComplete="current-password" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <Button type="submit" className="mt-2 w-full" disabled={login.isPending}>
          {login.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          {login.isPending ? t('login.submitting') : t('login.submit')}
        </Button>
      </form>
    </Form>
  );
}
