import { toast } from 'sonner';
import type { Status } from '@app/contract';
import { i18n } from '@/locales/i18n';
import { confirmDelete, confirmStatusChange, nextStatus } from './confirm';

/**
 * Asks to activate or deactivate `name`; when confirmed, runs `change(next)` and toasts the
 * success. Cancelling does nothing.
 */
export async function toggleStatusWithConfirm(
  name: string,
  current: Status,
  change: (next: Status, callbacks: { onSuccess: () => void }) => void,
): Promise<void> {
  const next = nextStatus(current);
  if (!(await confirmStatusChange(name, next))) return;
  change(next, {
    onSuccess: () =>
      toast.success(i18n.t(next === 'active' ? 'toasts.activated' : 'toasts.deactivated')),
  });
}

/** Asks to delete `name`; when confirmed, runs `remove` and toasts the success. */
export async function deleteWithConfirm(
  name: string,
  remove: (callbacks: { onSuccess: () => void }) => void,
): Promise<void> {
  if (!(await confirmDelete(name))) return;
  remove({ onSuccess: () => toast.success(i18n.t('toasts.deleted')) });
}
