import { useTranslation } from 'react-i18next';
import { StatusPage } from '@/components/errors/status-page';

export function Component() {
  const { t } = useTranslation();
  return (
    <StatusPage
      code="404"
      title={t('status.not_found_title')}
      message={t('status.not_found_message')}
    />
  );
}
