import { lazy, Suspense } from 'react';
import { LogOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { SelfUser } from '@app/contract';
import { DeferredLanguageSwitch } from '@/components/layout/deferred-language-switch';
import { LoadingScreen } from '@/components/layout/loading-screen';
import { Button } from '@/components/ui/button';
import { displayNameOf } from '@/lib/auth-store';
import { useLogout } from '../api/logout';

// The QR code library comes only with this screen, not with every signed-in page.
const TwoFactorPage = lazy(() =>
  import('./two-factor-page').then(({ TwoFactorPage: Page }) => ({ default: Page })),
);

/**
 * What a user whose role must enrol in two-factor sign-in sees until it has: enrolment, the
 * language and sign-out, nothing else (the server refuses the rest with MFA_ENROLMENT_REQUIRED).
 */
export function EnrolmentRequiredScreen({
  user,
  onEnrolled,
}: {
  user: SelfUser;
  onEnrolled: () => void;
}) {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    <div className="min-h-svh bg-muted/40 p-4">
      <header className="mx-auto mb-6 flex max-w-xl items-center justify-end gap-2">
        <span className="mr-auto truncate text-sm text-muted-foreground">
          {displayNameOf(user)}
        </span>
        <DeferredLanguageSwitch />
        <Button
          type="button"
          variant="ghost"
          size="sm"
          disabled={logout.isPending}
          onClick={() => logout.mutate()}
        >
          <LogOut aria-hidden />
          {t('user_menu.logout')}
        </Button>
      </header>
      <main className="mx-auto max-w-xl">
        <Suspense fallback={<LoadingScreen />}>
          <TwoFactorPage onEnrolled={onEnrolled} />
        </Suspense>
      </main>
    </div>
  );
}
