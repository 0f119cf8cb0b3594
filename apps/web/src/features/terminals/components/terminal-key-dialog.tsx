import { useId, useState } from 'react';
import { Check, Copy, TriangleAlert } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import type { TerminalWithKey } from '@app/contract';
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

export interface RevealedKey {
  terminal: TerminalWithKey;
  reason: 'created' | 'rotated';
}

/**
 * Shows a terminal's API key the one time the server sends it (creation or rotation), with a
 * copy button and a warning that it cannot be shown again. A click outside does not close it.
 */
export function TerminalKeyDialog({
  revealed,
  onClose,
}: {
  revealed: RevealedKey | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={revealed !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent onInteractOutside={(event) => event.preventDefault()}>
        {revealed && <KeyBody revealed={revealed} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function KeyBody({ revealed, onClose }: { revealed: RevealedKey; onClose: () => void }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [isCopied, setCopied] = useState(false);
  const { terminal } = revealed;

  const copy = async () => {
    try {
      await browser.copyText(terminal.api_key);
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
            ? t('terminals.key_created_title', { code: terminal.code })
            : t('terminals.key_rotated_title', { code: terminal.code })}
        </DialogTitle>
        <DialogDescription>{t('terminals.key_description')}</DialogDescription>
      </DialogHeader>
      <div
        role="alert"
        className="flex gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
      >
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        <p>{t('terminals.key_warning')}</p>
      </div>
      <div className="grid gap-2">
        <label htmlFor={inputId} className="text-sm font-medium">
          {t('terminals.api_key')}
        </label>
        <div className="flex gap-2">
          <Input
            id={inputId}
            readOnly
            value={terminal.api_key}
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
          {t('terminals.key_saved')}
        </Button>
      </DialogFooter>
    </>
  );
}
