import { useState } from 'react';
import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { errorMessageLines } from '@/lib/error-display';
import { useDisableTotp } from '../api/disable-totp';
import { useSetMfaEnabled } from '../api/verify-totp-enrolment';
import { CodeField } from './code-field';

/** Turning TOTP off: asks for a current code (or a recovery code). */
export function DisableTotpForm() {
  const { t } = useTranslation();
  const disable = useDisableTotp();
  const setMfaEnabled = useSetMfaEnabled();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const entered = code.trim();
    if (!entered) {
      setError(t('v.code_or_recovery_required', { ns: 'validation' }));
      return;
    }
    setError(null);
    disable.mutate(
      { code: entered },
      {
        onSuccess: () => {
          setCode('');
          setMfaEnabled(false);
        },
        onError: (failure) => setError(errorMessageLines(failure).join('\n')),
      },
    );
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      <div className="grid gap-1">
        <h2 className="font-medium">{t('two_factor.turn_off_title')}</h2>
        <p className="text-sm text-muted-foreground">{t('two_factor.turn_off_hint')}</p>
      </div>
      <CodeField
        label={t('two_factor.code_or_recovery')}
        value={code}
        onChange={setCode}
        error={error}
        numeric={false}
      />
      <div>
        <Button type="submit" variant="destructive" disabled={disable.isPending}>
          {disable.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          {t('two_factor.turn_off')}
        </Button>
      </div>
    </form>
  );
}
