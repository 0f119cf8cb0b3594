import { Coins } from 'lucide-react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DeferredLanguageSwitch } from '@/components/layout/deferred-language-switch';
import { holdDeferredMenus } from '@/components/layout/deferred-menu';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { safeRedirect } from '@/config/paths';
import { LoginForm } from '../components/login-form';

// The language menu's code comes when its button is pressed, not as the page starts (decision
// 0049): on a phone its fetch, run and render were the largest task after the sign-in page's own.
// Signed in, the shell releases it once its first page is painted.
holdDeferredMenus(Number.POSITIVE_INFINITY);

/** /login: signs in, then goes back to `from` when it is a safe local path, else /dashboard. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const from = searchParams.get('from');
  // Back from an identity provider (decision 0086): refused with a code, or TOTP still to do.
  const ssoError = searchParams.get('sso_error'); // the contract's OIDC_ERROR_PARAM, without zod
  const isSecondStep = searchParams.get('second_step') === '1';

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
              <h1>{t('login.title')}</h1>
            </CardTitle>
            <CardDescription>{t('login.description')}</CardDescription>
          </CardHeader>
          <CardContent>
            <LoginForm
              from={from}
              startAt={isSecondStep ? 'second' : 'password'}
              initialMessage={
                ssoError
                  ? t(/^[A-Z_]{1,64}$/.test(ssoError) ? ssoError : 'OIDC_SIGN_IN_FAILED', {
                      ns: 'errors',
                      defaultValue: t('OIDC_SIGN_IN_FAILED', { ns: 'errors' }),
                    })
                  : null
              }
              onSuccess={() => void navigate(safeRedirect(from), { replace: true })}
            />
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
