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
            <LoginForm onSuccess={() => void navigate(safeRedirect(from), { replace: true })} />
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
