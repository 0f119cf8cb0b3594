import { ShieldCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessageLines } from '@/lib/error-display';
import { useMfaStatus } from '../api/get-mfa-status';
import { DisableTotpForm } from '../components/disable-totp-form';
import { TotpEnrolment } from '../components/totp-enrolment';

/**
 * Two-factor sign-in (DESIGN 4.1): set it up (QR code, key, a code, the recovery codes) or turn it
 * off. A user whose role must enrol sees this page and nothing else until it is on.
 */
export function TwoFactorPage({ onEnrolled }: { onEnrolled?: () => void }) {
  const { t } = useTranslation();
  // The status is refreshed only when the recovery codes are put away, so they stay on screen.
  const status = useMfaStatus();

  let body: React.ReactNode;
  if (status.isPending) {
    body = (
      <div className="grid gap-2" aria-busy="true" aria-label={t('two_factor.loading')}>
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-9 w-32" />
      </div>
    );
  } else if (status.isError) {
    body = (
      <div className="grid gap-3">
        <p role="alert" className="text-sm whitespace-pre-line text-destructive">
          {errorMessageLines(status.error).join('\n')}
        </p>
        <div>
          <Button type="button" variant="outline" onClick={() => void status.refetch()}>
            {t('two_factor.retry')}
          </Button>
        </div>
      </div>
    );
  } else if (status.data.mfa_enabled) {
    body = (
      <div className="grid gap-6">
        <p className="flex items-center gap-2 text-sm" data-testid="two-factor-on">
          <ShieldCheck className="size-4 text-green-600" aria-hidden />
          {t('two_factor.is_on', { count: status.data.recovery_codes_remaining })}
        </p>
        <DisableTotpForm />
      </div>
    );
  } else {
    body = (
      <div className="grid gap-4">
        {status.data.mfa_enrolment_required && (
          <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
            {t('two_factor.required_notice')}
          </p>
        )}
        <TotpEnrolment onFinished={() => onEnrolled?.()} />
      </div>
    );
  }

  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>
          <h1>{t('two_factor.title')}</h1>
        </CardTitle>
        <CardDescription>{t('two_factor.description')}</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
