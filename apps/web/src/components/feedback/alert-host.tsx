import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { useAlertStore } from '@/lib/alert-store';

/**
 * Shows the alerts asked for through `showAlert` (session expired, server error), one at a time.
 * Escape on an alert without a cancel button counts as its confirm.
 */
export function AlertHost() {
  const { t } = useTranslation();
  const current = useAlertStore((state) => state.queue[0]);
  const resolve = useAlertStore((state) => state.resolve);
  if (!current) return null;

  return (
    <AlertDialog
      key={current.id}
      open
      onOpenChange={(open) => {
        if (!open) resolve(current.id, !current.cancelKey);
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{t(current.titleKey, current.values)}</AlertDialogTitle>
          <AlertDialogDescription>{t(current.messageKey, current.values)}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          {current.cancelKey && (
            <AlertDialogCancel onClick={() => resolve(current.id, false)}>
              {t(current.cancelKey)}
            </AlertDialogCancel>
          )}
          <AlertDialogAction
            destructive={current.destructive}
            onClick={() => resolve(current.id, true)}
          >
            {t(current.confirmKey ?? 'alerts.ok')}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
