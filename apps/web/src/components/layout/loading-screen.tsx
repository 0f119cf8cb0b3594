import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** Full-screen spinner; may show before the catalogues have loaded, so it never suspends. */
export function LoadingScreen() {
  const { t, ready } = useTranslation('common', { useSuspense: false });
  return (
    <div className="flex min-h-svh items-center justify-center" role="status" aria-live="polite">
      <LoaderCircle className="size-8 animate-spin text-muted-foreground" aria-hidden />
      <span className="sr-only">{ready ? t('app.loading') : 'Loading…'}</span>
    </div>
  );
}
