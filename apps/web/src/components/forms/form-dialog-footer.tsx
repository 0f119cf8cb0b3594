import type { ReactNode } from 'react';
import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { DialogClose, DialogFooter } from '@/components/ui/dialog';

/** A dialog's footer: Cancel, which closes the dialog, then the step's own buttons. */
export function DialogCancelFooter({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <DialogFooter className="pt-2">
      <DialogClose asChild>
        <Button type="button" variant="outline">
          {t('actions.cancel')}
        </Button>
      </DialogClose>
      {children}
    </DialogFooter>
  );
}

/**
 * Cancel and submit under a dialog's form; submit shows progress while `isPending`. Cancel
 * closes the dialog, or runs `onCancel` when given (a form inside a bigger modal).
 */
export function FormDialogFooter({
  isPending,
  submitLabel,
  onCancel,
}: {
  isPending: boolean;
  submitLabel?: string;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const submit = (
    <Button type="submit" disabled={isPending}>
      {isPending && <LoaderCircle className="animate-spin" aria-hidden />}
      {isPending ? t('actions.saving') : (submitLabel ?? t('actions.save'))}
    </Button>
  );
  if (!onCancel) return <DialogCancelFooter>{submit}</DialogCancelFooter>;
  return (
    <DialogFooter className="pt-2">
      <Button type="button" variant="outline" onClick={onCancel}>
        {t('actions.cancel')}
      </Button>
      {submit}
    </DialogFooter>
  );
}
