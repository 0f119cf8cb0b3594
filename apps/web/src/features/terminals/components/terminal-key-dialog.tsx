import { useTranslation } from 'react-i18next';
import type { TerminalWithKey } from '@app/contract';
import { OneTimeSecretDialog } from '@/components/feedback/one-time-secret-dialog';

export interface RevealedKey {
  terminal: TerminalWithKey;
  reason: 'created' | 'rotated';
}

/** A terminal's API key, the one time the server sends it (creation or rotation). */
export function TerminalKeyDialog({
  revealed,
  onClose,
}: {
  revealed: RevealedKey | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const secret = revealed && {
    title:
      revealed.reason === 'created'
        ? t('terminals.key_created_title', { code: revealed.terminal.code })
        : t('terminals.key_rotated_title', { code: revealed.terminal.code }),
    description: t('terminals.key_description'),
    warning: t('terminals.key_warning'),
    label: t('terminals.api_key'),
    value: revealed.terminal.api_key,
    saved: t('terminals.key_saved'),
  };
  return <OneTimeSecretDialog secret={secret} onClose={onClose} />;
}
