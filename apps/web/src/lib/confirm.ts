import type { Status } from '@app/contract';
import { confirmAlert } from './alert-store';

/**
 * The status confirm of spec 4: 'Activate' or 'Deactivate' `name`? Deactivating looks
 * destructive. Resolves true when confirmed.
 */
export const confirmStatusChange = (name: string, next: Status): Promise<boolean> =>
  confirmAlert({
    id: `status-${next}-${name}`,
    titleKey: next === 'active' ? 'confirm.activate_title' : 'confirm.deactivate_title',
    messageKey: next === 'active' ? 'confirm.activate_message' : 'confirm.deactivate_message',
    values: { name },
    confirmKey: next === 'active' ? 'actions.activate' : 'actions.deactivate',
    cancelKey: 'actions.cancel',
    destructive: next === 'inactive',
  });

/** The delete confirm of spec 4. */
export const confirmDelete = (name: string): Promise<boolean> =>
  confirmAlert({
    id: `delete-${name}`,
    titleKey: 'confirm.delete_title',
    messageKey: 'confirm.delete_message',
    values: { name },
    confirmKey: 'actions.delete',
    cancelKey: 'actions.cancel',
    destructive: true,
  });

/** The status a toggle moves to. */
export const nextStatus = (current: Status): Status =>
  current === 'active' ? 'inactive' : 'active';
