import { useTranslation } from 'react-i18next';
import { StatusPage } from '@/components/errors/status-page';

export function Component() {
  const { t } = useTranslation();
  return (
    <StatusPage
      title={t('status.access_denied_title')}
      message={t('status.access_denied_message')}
    />
  );
}
