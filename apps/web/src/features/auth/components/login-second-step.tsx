import { useId, useState } from 'react';
import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { isApiError } from '@/lib/api-error';
import { errorMessageLines } from '@/lib/error-display';
import { useLoginMfa } from '../api/login-mfa';

/**
 * The second step of a sign-in with TOTP on (DESIGN 4.1): the authenticator's 6-digit code, or
 * a recovery code. A wrong code is said under the field; a dead sign-in (expired, or too many
 * wrong codes) goes back to the password step with `onRestart`.
 */
export function LoginSecondStep({
  onSuccess,
  onRestart,
}: {
  onSuccess: () => void;
  onRestart: (message: string) => void;
}) {
  const { t } = useTranslation();
  const loginMfa = useLoginMfa();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const errorId = `${fieldId}-error`;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const entered = useRecovery ? value.trim() : value.replace(/\s+/g, '');
    if (!useRecovery && !/^\d{6}$/.test(entered)) {
      setError(t('v.mfa_code_format', { ns: 'validation' }));
      return;
    }
    if (useRecovery && entered === '') {
      setError(t('v.recovery_code_required', { ns: 'validation' }));
      return;
    }
    setError(null);
    loginMfa.mutate(useRecovery ? { recovery_code: entered } : { code: entered }, {
      onSuccess,
      onError: (failure) => {
        const message = errorMessageLines(failure).join('\n');
        if (isApiError(failure) && failure.code === 'MFA_CHALLENGE_INVALID') onRestart(message);
        else setError(message);
      },
    });
  };

  const switchMode = () => {
    setUseRecovery((current) => !current);
    setValue('');
    setError(null);
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={submit} aria-labelledby={`${fieldId}-title`}>
      <div className="grid gap-1">
        <h2 id={`${fieldId}-title`} className="font-medium">
          {t('two_factor.login_title')}
        </h2>
        <p className="text-sm text-muted-foreground">
          {useRecovery ? t('two_factor.login_recovery_hint') : t('two_factor.login_code_hint')}
        </p>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={fieldId}>
          {useRecovery ? t('two_factor.recovery_code') : t('two_factor.code')}
        </Label>
        {useRecovery ? (
          <Input
            key="recovery"
            id={fieldId}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
        ) : (
          <Input
            key="code"
            id={fieldId}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={7}
            autoFocus
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
        )}
        {error && (
          <p id={errorId} role="alert" className="text-sm whitespace-pre-line text-destructive">
            {error}
          </p>
        )}
      </div>
      <Button type="submit" className="w-full" disabled={loginMfa.isPending}>
        {loginMfa.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
        {loginMfa.isPending ? t('two_factor.verifying') : t('two_factor.verify')}
      </Button>
      <Button type="button" variant="link" className="h-auto p-0" onClick={switchMode}>
        {useRecovery ? t('two_factor.use_code') : t('two_factor.use_recovery_code')}
      </Button>
    </form>
  );
}
