import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { StatusPage } from '@/components/errors/status-page';
import { paths } from '@/config/paths';

/**
 * Page not found: at /error/404, and in place at any address no route knows, which stays in the
 * address bar and is shown, so a mistyped one can be read and mended (issue 41 item 8).
 */
export function Component() {
  const { t } = useTranslation();
  const { pathname, search, hash } = useLocation();
  const address = pathname + search + hash;
  return (
    <StatusPage
      code="404"
      title={t('status.not_found_title')}
      message={t('status.not_found_message')}
    >
      {pathname !== paths.errors.notFound.path && (
        <p className="max-w-md text-sm text-muted-foreground">
          {t('status.not_found_address')}{' '}
          <code className="font-mono break-all text-foreground" data-testid="not-found-address">
            {address}
          </code>
        </p>
      )}
    </StatusPage>
  );
}
