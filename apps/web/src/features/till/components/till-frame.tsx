import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { displayNameOf, useAuthStore } from '@/lib/auth-store';
import { changeLanguage, LANGUAGES, type Language } from '@/locales/i18n';
import { signOutOfTill, TILL_EXITS } from '../lib/till-session';
import { TillButton, TillButtonLink } from './till-button';

const subscribeOnline = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

/** Whether the browser says it is online (the till works on offline: its shell is cached). */
const useOnline = () =>
  useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );

/** English | 中文: two buttons, the current one pressed. */
function LanguageToggle() {
  const { t, i18n } = useTranslation();
  return (
    <div role="group" aria-label={t('language.label')} className="flex rounded-md border p-0.5">
      {LANGUAGES.map((lng: Language) => {
        const current = i18n.language === lng;
        return (
          <TillButton
            key={lng}
            type="button"
            variant={current ? 'secondary' : 'ghost'}
            size="sm"
            lang={lng}
            aria-pressed={current}
            onClick={() => void changeLanguage(lng)}
          >
            {t(`language.${lng}`)}
          </TillButton>
        );
      })}
    </div>
  );
}

/**
 * The till's own page (DESIGN 8): a bar with who is signed in, the language, the way to the
 * back office and out, over the till. No sidebar, no back-office navigation: the counter's screen.
 */
export function TillFrame({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const user = useAuthStore((state) => state.user);
  const online = useOnline();
  const [leaving, setLeaving] = useState(false);
  // The page's title is the till's, in its language (i18n's handler writes the app's first).
  useEffect(() => {
    document.title = t('till.page_title');
  }, [t, i18n.language]);
  return (
    <div className="flex min-h-svh flex-col">
      <header className="flex flex-wrap items-center justify-between gap-2 border-b px-3 py-2 print:hidden sm:px-4">
        <p className="flex min-w-0 items-center gap-2 text-sm">
          <span className="font-semibold">{t('till.app_name')}</span>
          {user && (
            <span className="truncate text-muted-foreground" data-testid="till-user">
              {displayNameOf(user)}
            </span>
          )}
          {!online && (
            <span
              role="status"
              className="rounded-md bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900"
              data-testid="till-offline"
            >
              {t('till.offline')}
            </span>
          )}
        </p>
        <nav aria-label={t('till.bar_label')} className="flex flex-wrap items-center gap-2">
          <LanguageToggle />
          <TillButtonLink variant="ghost" size="sm" href={TILL_EXITS.backOffice}>
            {t('till.back_office')}
          </TillButtonLink>
          <TillButton
            type="button"
            variant="outline"
            size="sm"
            disabled={leaving}
            onClick={() => {
              setLeaving(true);
              void signOutOfTill();
            }}
          >
            {t('user_menu.logout')}
          </TillButton>
        </nav>
      </header>
      <main className="flex-1 p-3 sm:p-4">{children}</main>
    </div>
  );
}
