import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { DialogClose, DialogFooter } from '@/components/ui/dialog';

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
  const cancel = (
    <Button type="button" variant="outline" onClick={onCancel}>
      {t('actions.cancel')}
    </Button>
  );
  return (
    <DialogFooter className="pt-2">
      {onCancel ? cancel : <DialogClose asChild>{cancel}</DialogClose>}
      <Button type="submit" disabled={isPending}>
        {isPending && <LoaderCircle className="animate-spin" aria-hidden />}
        {isPending ? t('actions.saving') : (submitLabel ?? t('actions.save'))}
      </Button>
    </DialogFooter>
  );
}
