import type { ChargeBody } from '../api/till';

/**
 * A charge sent and not yet answered (DESIGN 8): kept on the device with its Idempotency-Key
 * until an HTTP answer arrives, so a dropped network or a reload retries the same key and the
 * server applies it once.
 */
export interface PendingCharge {
  key: string;
  terminal_id: number;
  body: ChargeBody;
  started_at: string;
}

const STORAGE_KEY = 'till-pending-charge';

export function loadPendingCharge(): PendingCharge | null {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<PendingCharge>;
    if (typeof parsed.key !== 'string' || typeof parsed.terminal_id !== 'number' || !parsed.body) {
      return null;
    }
    return parsed as PendingCharge;
  } catch {
    return null;
  }
}

export function savePendingCharge(charge: PendingCharge): void {
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify(charge));
}

export function clearPendingCharge(): void {
  window.localStorage.removeItem(STORAGE_KEY);
}

const TERMINAL_KEY = 'till-terminal';

/** The terminal this device charged through last. */
export function loadTerminalChoice(): number | null {
  const raw = window.localStorage.getItem(TERMINAL_KEY);
  const id = raw === null ? NaN : Number(raw);
  return Number.isInteger(id) && id > 0 ? id : null;
}

export function saveTerminalChoice(id: number): void {
  window.localStorage.setItem(TERMINAL_KEY, String(id));
}
