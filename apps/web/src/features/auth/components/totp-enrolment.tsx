import { useState } from 'react';
import { LoaderCircle } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import type { TotpEnrolment as Enrolment } from '@app/contract';
import { Button } from '@/components/ui/button';
import { errorMessageLines } from '@/lib/error-display';
import { useStartTotpEnrolment } from '../api/start-totp-enrolment';
import { useSetMfaEnabled, useVerifyTotpEnrolment } from '../api/verify-totp-enrolment';
import { CodeField } from './code-field';
import { RecoveryCodes } from './recovery-codes';

/** The base32 key in groups of four, as authenticator apps show it. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * Turning TOTP on: start (a new secret), scan the QR code or type the key, confirm with a code,
 * then the recovery codes, shown once. `onFinished` runs after the codes are put away.
 */
export function TotpEnrolment({ onFinished }: { onFinished: () => void }) {
  const { t } = useTranslation();
  const start = useStartTotpEnrolment();
  const verify = useVerifyTotpEnrolment();
  const setMfaEnabled = useSetMfaEnabled();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (codes) {
    return (
      <RecoveryCodes
        codes={codes}
        onDone={() => {
          // The gate lifts only once the codes are put away, so they are not skipped past.
          setMfaEnabled(true);
          onFinished();
        }}
      />
    );
  }

  if (!enrolment) {
    return (
      <div className="grid gap-4">
        <p className="text-sm text-muted-foreground">{t('two_factor.intro')}</p>
        {start.isError && (
          <p role="alert" className="text-sm whitespace-pre-line text-destructive">
            {errorMessageLines(start.error).join('\n')}
          </p>
        )}
        <div>
          <Button
            type="button"
            disabled={start.isPending}
            onClick={() => start.mutate(undefined, { onSuccess: setEnrolment })}
          >
            {start.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
            {t('two_factor.set_up')}
          </Button>
        </div>
      </div>
    );
  }

  const confirm = (event: React.FormEvent) => {
    event.preventDefault();
    const entered = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(entered)) {
      setError(t('v.mfa_code_format', { ns: 'validation' }));
      return;
    }
    setError(null);
    verify.mutate(
      { code: entered },
      {
        onSuccess: setCodes,
        onError: (failure) => setError(errorMessageLines(failure).join('\n')),
      },
    );
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={confirm}>
      <ol className="grid list-decimal gap-4 pl-5 text-sm">
        <li className="grid gap-3">
          <span>{t('two_factor.scan')}</span>
          <div className="w-fit rounded-md border bg-white p-3">
            <QRCodeSVG
              value={enrolment.otpauth_url}
              size={176}
              role="img"
              aria-label={t('two_factor.qr_label')}
            />
          </div>
          <span className="text-muted-foreground">{t('two_factor.manual_key')}</span>
          <code
            className="w-fit rounded bg-muted px-2 py-1 font-mono text-sm tracking-wider select-all"
            data-testid="totp-secret"
          >
            {grouped(enrolment.secret)}
          </code>
        </li>
        <li className="grid gap-3">
          <span>{t('two_factor.enter_code')}</span>
          <CodeField label={t('two_factor.code')} value={code} onChange={setCode} error={error} />
        </li>
      </ol>
      <div>
        <Button type="submit" disabled={verify.isPending}>
          {verify.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          {t('two_factor.confirm')}
        </Button>
      </div>
    </form>
  );
}
