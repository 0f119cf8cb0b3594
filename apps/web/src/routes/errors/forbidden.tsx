import { useTranslation } from 'react-i18next';
import { StatusPage } from '@/components/errors/status-page';

export function Component() {
  const { t } = useTranslation();
  return (
    <StatusPage
      code="403"
      title={t('status.forbidden_title')}
      message={t('status.forbidden_message')}
    />
  );
}
