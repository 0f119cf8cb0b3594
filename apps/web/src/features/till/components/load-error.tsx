import { useTranslation } from 'react-i18next';
import { errorMessageLines } from '@/lib/error-display';
import { TillButton } from './till-button';

/** A list that did not load: why, and a retry. */
export function LoadError({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="grid justify-items-start gap-2 rounded-md border p-3 text-sm">
      <p className="font-medium">{title}</p>
      <p className="text-muted-foreground">{errorMessageLines(error).join(' ')}</p>
      <TillButton type="button" variant="outline" size="sm" onClick={onRetry}>
        {t('till.retry')}
      </TillButton>
    </div>
  );
}
