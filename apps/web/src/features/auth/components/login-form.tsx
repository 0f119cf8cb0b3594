import {
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
  type ReactNode,
} from 'react';
import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { loginFieldErrors } from '@app/contract/constants';
import { PasswordInput } from '@/components/forms/password-input';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { isApiError } from '@/lib/api-error';
import { errorMessageLines } from '@/lib/error-display';
import { translateMessage } from '@/lib/messages';
import { takePrerenderedFocus, takePrerenderedValue } from '@/lib/prerendered';
import { useLogin } from '../api/login';
import { oidcStartHref, useMatchedProvider } from '../api/matched-provider';
import { LoginSecondStep } from './login-second-step';

type Field = 'username' | 'password';
type FieldErrors = Partial<Record<Field, string>>;

/**
 * A labelled box with its error below, wired for screen readers (the error is the box's
 * description and an alert). `children` renders the box from the ids and state it is given.
 */
function LoginField({
  label,
  error,
  children,
}: {
  label: string;
  error: string | undefined;
  children: (box: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby': string | undefined;
  }) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id} data-error={!!error} className="data-[error=true]:text-destructive">
        {label}
      </Label>
      {children({
        id,
        'aria-invalid': !!error,
        'aria-describedby': error ? errorId : undefined,
      })}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Username (or email) and password; with TOTP on, then the second step. Plain controlled inputs
 * checked by the contract's `loginFieldErrors` (loginBodySchema's rules and messages, without the
 * schema or form library, so the sign-in page stays light: decision 0026). As a form library
 * would: nothing is sent while a field is wrong, the first wrong field takes the focus, and after
 * a first submit each field is checked again as it changes.
 */
const noSubscription = () => () => undefined;

export function LoginForm({
  onSuccess,
  from = null,
  startAt = 'password',
  initialMessage = null,
}: {
  onSuccess: () => void;
  /** Where to go once signed in, passed on to an OIDC sign-in too. */
  from?: string | null;
  /** 'second': back from an identity provider with TOTP still to do (decision 0086). */
  startAt?: 'password' | 'second';
  /** A message to show above the fields (a refused OIDC sign-in's). */
  initialMessage?: string | null;
}) {
  const { t } = useTranslation();
  // False only when rendered to HTML at build time (decision 0037): the pre-rendered page's
  // button stays disabled until the app takes over, so Enter in a field cannot submit the form
  // natively (a GET that would put the password in the address).
  const isLive = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const login = useLogin();
  const [step, setStep] = useState<'password' | 'second'>(startAt);
  const [values, setValues] = useState<Record<Field, string>>({ username: '', password: '' });
  // Contract keys (`v.*`, translated when shown) or a server message already in words.
  const [errors, setErrors] = useState<FieldErrors>({});
  const [isSubmitted, setSubmitted] = useState(false);
  const [restartMessage, setRestartMessage] = useState<string | null>(initialMessage);
  const passwordBox = useRef<HTMLInputElement>(null);
  // The identity provider of the typed email's domain, if the Super Admin connected one.
  const provider = useMatchedProvider(values.username);
  const boxes = { username: useRef<HTMLInputElement>(null), password: passwordBox };
  // What was typed into the pre-rendered page this form replaced, and where (decision 0037):
  // taken before the browser paints the form, so nothing typed is seen to vanish.
  useLayoutEffect(() => {
    const typed = {
      username: takePrerenderedValue('username'),
      password: takePrerenderedValue('password'),
    };
    // The replaced page's inputs are outside React: read once, as the form mounts.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (typed.username || typed.password) setValues(typed);
    if (takePrerenderedFocus() === 'password') passwordBox.current?.focus();
  }, []);

  if (step === 'second') {
    return (
      <LoginSecondStep
        onSuccess={onSuccess}
        onRestart={(message) => {
          setValues((current) => ({ ...current, password: '' }));
          setErrors({});
          setRestartMessage(message);
          setStep('password');
        }}
      />
    );
  }

  const change = (field: Field, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (isSubmitted) {
      setErrors((current) => ({ ...current, [field]: loginFieldErrors(next)[field] }));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = loginFieldErrors(values);
    setErrors(found);
    const firstWrong = (['username', 'password'] as const).find((field) => found[field]);
    if (firstWrong) {
      boxes[firstWrong].current?.focus();
      return;
    }
    setRestartMessage(null);
    login.mutate(
      { username: values.username.trim(), password: values.password },
      {
        onSuccess: (result) => {
          if (result.mfaRequired) setStep('second');
          else onSuccess();
        },
        onError: (error) => {
          // A wrong username or password is said at the password, which takes the focus;
          // anything else (throttled, inactive, offline) above the fields.
          if (isApiError(error) && error.code === 'INVALID_CREDENTIALS') {
            setErrors({ password: t('INVALID_CREDENTIALS', { ns: 'errors' }) });
            boxes.password.current?.focus();
          } else {
            setRestartMessage(errorMessageLines(error).join(' '));
            boxes.username.current?.focus();
          }
        },
      },
    );
  };

  const errorText = (field: Field) => {
    const message = errors[field];
    return message === undefined ? undefined : translateMessage(message, t);
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      {restartMessage && (
        <p role="alert" className="text-sm text-destructive">
          {restartMessage}
        </p>
      )}
      <LoginField label={t('login.username')} error={errorText('username')}>
        {(box) => (
          <Input
            {...box}
            ref={boxes.username}
            name="username"
            autoComplete="username"
            autoFocus
            value={values.username}
            onChange={(event) => change('username', event.target.value)}
          />
        )}
      </LoginField>
      <LoginField label={t('login.password')} error={errorText('password')}>
        {(box) => (
          <PasswordInput
            {...box}
            ref={boxes.password}
            name="password"
            autoComplete="current-password"
            value={values.password}
            onChange={(event) => change('password', event.target.value)}
          />
        )}
      </LoginField>
      <Button type="submit" className="mt-2 w-full" disabled={!isLive || login.isPending}>
        {login.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
        {login.isPending ? t('login.submitting') : t('login.submit')}
      </Button>
      {provider && (
        <>
          <p className="text-center text-sm text-muted-foreground">{t('login.sso_or')}</p>
          <Button asChild variant="outline" className="w-full">
            <a href={oidcStartHref(provider.id, from, values.username)}>
              {t('login.sso_button', { name: provider.name })}
            </a>
          </Button>
        </>
      )}
    </form>
  );
}
