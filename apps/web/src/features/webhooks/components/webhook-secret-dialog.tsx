import { useTranslation } from 'react-i18next';
import type { WebhookWithSecret } from '@app/contract';
import { OneTimeSecretDialog } from '@/components/feedback/one-time-secret-dialog';

export interface RevealedSecret {
  endpoint: WebhookWithSecret;
  reason: 'created' | 'rotated';
}

/** An endpoint's signing secret, the one time the server sends it (creation or rotation). */
export function WebhookSecretDialog({
  revealed,
  onClose,
}: {
  revealed: RevealedSecret | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const secret = revealed && {
    title:
      revealed.reason === 'created'
        ? t('webhooks.secret_created_title')
        : t('webhooks.secret_rotated_title'),
    description: t('webhooks.secret_description', { url: revealed.endpoint.url }),
    warning: t('webhooks.secret_warning'),
    label: t('webhooks.secret'),
    value: revealed.endpoint.secret,
    saved: t('webhooks.secret_saved'),
    breakDescription: true,
  };
  return <OneTimeSecretDialog secret={secret} onClose={onClose} />;
}
