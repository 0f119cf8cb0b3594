import { create } from 'zustand';
import { registerModal } from './modals';

/** A generic alert (spec 2): title, message, confirm and an optional cancel, maybe destructive. */
export interface AlertRequest {
  /** Alerts with the same id are shown once, however often they are asked for. */
  id: string;
  /** Translation keys (namespace `common` unless prefixed `ns:`). */
  titleKey: string;
  messageKey: string;
  /** Interpolation values for the title and message (e.g. the name of what is deleted). */
  values?: Record<string, string | number>;
  confirmKey?: string;
  cancelKey?: string;
  destructive?: boolean;
  onConfirm?: () => void;
  onCancel?: () => void;
}

interface AlertState {
  queue: AlertRequest[];
  show: (request: AlertRequest) => void;
  /** Closes the alert `id`; `confirmed` runs its onConfirm, else its onCancel. */
  resolve: (id: string, confirmed: boolean) => void;
  clear: () => void;
}

export const useAlertStore = create<AlertState>()((set, get) => ({
  queue: [],
  show: (request) => {
    if (get().queue.some((alert) => alert.id === request.id)) return;
    set({ queue: [...get().queue, request] });
  },
  resolve: (id, confirmed) => {
    const alert = get().queue.find((item) => item.id === id);
    if (!alert) return;
    set({ queue: get().queue.filter((item) => item !== alert) });
    if (confirmed) alert.onConfirm?.();
    else alert.onCancel?.();
  },
  clear: () => {
    const dropped = get().queue;
    set({ queue: [] });
    for (const alert of dropped) alert.onCancel?.();
  },
}));

export const showAlert = (request: AlertRequest): void => useAlertStore.getState().show(request);

/** Asks a question; true when confirmed, false when cancelled or closed with the other modals. */
export const confirmAlert = (
  request: Omit<AlertRequest, 'onConfirm' | 'onCancel'>,
): Promise<boolean> =>
  new Promise((resolve) => {
    showAlert({ ...request, onConfirm: () => resolve(true), onCancel: () => resolve(false) });
  });

// Pending alerts are modals too: closing every modal drops them.
registerModal(() => useAlertStore.getState().clear());
