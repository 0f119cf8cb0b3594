import type { RefundBody } from '../api/till';

/**
 * A refund sent and not yet answered, kept on the device with its Idempotency-Key until an HTTP
 * answer arrives, as a charge is (pending-charge.ts, DESIGN 8): a dropped network or a reload
 * sends it again with the same key, and the server refunds once.
 */
export interface PendingRefund {
  key: string;
  order_id: number;
  /** For the till's screen while it waits: which order. */
  order_no: string;
  body: RefundBody;
  started_at: string;
}

const STORAGE_KEY = 'till-pending-refund';

export function loadPendingRefund(): PendingRefund | null {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<PendingRefund>;
    if (
      typeof parsed.key !== 'string' ||
      typeof parsed.order_id !== 'number' ||
      typeof parsed.order_no !== 'string' ||
      typeof parsed.body?.reason !== 'string'
    ) {
      return null;
    }
    return parsed as PendingRefund;
  } catch {
    return null;
  }
}

export function savePendingRefund(refund: PendingRefund): void {
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify(refund));
}

export function clearPendingRefund(): void {
  window.localStorage.removeItem(STORAGE_KEY);
}
