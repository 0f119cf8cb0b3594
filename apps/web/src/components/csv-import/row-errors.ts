import type { TFunction } from 'i18next';
import { isErrorCode } from '@app/contract';
import { translateMessage } from '@/lib/messages';

/** A row's reasons as `field: message`, a `v.*` key or a catalogue code translated. */
export function rowErrorLines(errors: Record<string, string>, t: TFunction): string[] {
  return Object.entries(errors).map(([field, message]) => {
    const text = isErrorCode(message) ? t(message, { ns: 'errors' }) : translateMessage(message, t);
    return field === '_row' ? text : `${field}: ${text}`;
  });
}
