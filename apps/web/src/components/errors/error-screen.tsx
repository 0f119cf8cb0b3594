import { useEffect } from 'react';
import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { isChunkLoadError, reloadOnceAfterChunkError } from '@/lib/chunk-load';

export interface ErrorScreenProps {
  error: unknown;
  /** The Reload page button. */
  onReload: () => void;
}

/**
 * The generic error screen of spec 2 (Oops!). For a chunk-load error it says the app was
 * updated and applies the chunk-load rule (one automatic reload, spec 4).
 */
export function ErrorScreen({ error, onReload }: ErrorScreenProps) {
  const { t } = useTranslation();
  const isChunkError = isChunkLoadError(error);

  useEffect(() => {
    if (isChunkError) reloadOnceAfterChunkError();
  }, [isChunkError]);

  return (
    <div
      role="alert"
      className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center"
    >
      <TriangleAlert className="size-10 text-destructive" aria-hidden />
      <h1 className="text-3xl font-semibold">{t('error_screen.title')}</h1>
      <p className="max-w-md text-muted-foreground">
        {isChunkError ? t('error_screen.chunk_message') : t('error_screen.message')}
      </p>
      <Button onClick={onReload}>{t('error_screen.reload')}</Button>
    </div>
  );
}
