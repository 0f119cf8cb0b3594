import { Secret, TOTP } from 'otpauth';
import { PAY_CODE } from '@app/contract';

/** What this phone keeps of its registration (DESIGN 8): enough to draw codes offline. */
export interface StoredPayDevice {
  device_id: string;
  secret: string;
  name: string;
}

const storageKey = (userId: number | string) => `pay-device:${userId}`;

/** The device this browser registered for `userId`, if any. */
export function loadPayDevice(userId: number | string): StoredPayDevice | null {
  try {
    const raw = window.localStorage.getItem(storageKey(userId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredPayDevice>;
    if (typeof parsed.device_id !== 'string' || typeof parsed.secret !== 'string') return null;
    return { device_id: parsed.device_id, secret: parsed.secret, name: parsed.name ?? '' };
  } catch {
    return null;
  }
}

export function savePayDevice(userId: number | string, device: StoredPayDevice): void {
  window.localStorage.setItem(storageKey(userId), JSON.stringify(device));
}

export function forgetPayDevice(userId: number | string): void {
  window.localStorage.removeItem(storageKey(userId));
}

/**
 * The pay code at `timestamp` (ms): the device's 12 digits and the 6-digit RFC 6238 TOTP of its
 * secret (SHA-1, 30 s), as the server checks it (decision 0078).
 */
export function payCodeAt(
  device: Pick<StoredPayDevice, 'device_id' | 'secret'>,
  timestamp: number,
) {
  const totp = new TOTP({
    secret: Secret.fromBase32(device.secret),
    algorithm: PAY_CODE.algorithm,
    digits: PAY_CODE.totpDigits,
    period: PAY_CODE.period,
  });
  return device.device_id + totp.generate({ timestamp });
}

/** The 30 s step `timestamp` falls in. */
export const stepAt = (timestamp: number): number => Math.floor(timestamp / 1000 / PAY_CODE.period);

/** Whole seconds until the code drawn at `timestamp` changes (1…30). */
export const secondsLeftAt = (timestamp: number): number =>
  PAY_CODE.period - (Math.floor(timestamp / 1000) % PAY_CODE.period);

/** 18 digits as three groups of six, easier to read out and to type. */
export const groupDigits = (code: string): string => code.replace(/(\d{6})(?=\d)/g, '$1 ');

/** A name for this phone the employee recognises in its list: "Chrome on Android". */
export function browserDeviceName(userAgent = navigator.userAgent): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return system ? `${browser} on ${system}` : browser;
}
