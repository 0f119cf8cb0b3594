import { useId, useState } from 'react';
import { Check, Copy, TriangleAlert } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import type { WebhookWithSecret } from '@app/contract';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { browser } from '@/lib/browser';

export interface RevealedSecret {
  endpoint: WebhookWithSecret;
  reason: 'created' | 'rotated';
}

/**
 * Shows an endpoint's signing secret the one time the server sends it (creation or rotation),
 * with a copy button and a warning that it cannot be shown again. A click outside does not close it.
 */
export function WebhookSecretDialog({
  revealed,
  onClose,
}: {
  revealed: RevealedSecret | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={revealed !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent onInteractOutside={(event) => event.preventDefault()}>
        {revealed && <SecretBody revealed={revealed} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function SecretBody({ revealed, onClose }: { revealed: RevealedSecret; onClose: () => void }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [isCopied, setCopied] = useState(false);
  const { endpoint } = revealed;

  const copy = async () => {
    try {
      await browser.copyText(endpoint.secret);
      setCopied(true);
      toast.success(t('toasts.copied'));
    } catch {
      toast.error(t('toasts.copy_failed'));
    }
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>
          {revealed.reason === 'created'
            ? t('webhooks.secret_created_title')
            : t('webhooks.secret_rotated_title')}
        </DialogTitle>
        <DialogDescription className="break-all">
          {t('webhooks.secret_description', { url: endpoint.url })}
        </DialogDescription>
      </DialogHeader>
      <div
        role="alert"
        className="flex gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
      >
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        <p>{t('webhooks.secret_warning')}</p>
      </div>
      <div className="grid gap-2">
        <label htmlFor={inputId} className="text-sm font-medium">
          {t('webhooks.secret')}
        </label>
        <div className="flex gap-2">
          <Input
            id={inputId}
            readOnly
            value={endpoint.secret}
            className="font-mono text-xs"
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button type="button" variant="outline" onClick={() => void copy()}>
            {isCopied ? <Check aria-hidden /> : <Copy aria-hidden />}
            {isCopied ? t('actions.copied') : t('actions.copy')}
          </Button>
        </div>
      </div>
      <DialogFooter>
        <Button type="button" onClick={onClose}>
          {t('webhooks.secret_saved')}
        </Button>
      </DialogFooter>
    </>
  );
}
