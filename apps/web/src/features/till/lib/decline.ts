import { i18n } from '@/locales/i18n';
import { isApiError } from '@/lib/api-error';
import { errorMessageLines } from '@/lib/error-display';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Why a charge was declined, in the current language: the catalogue's message of its code with
 * the answer's `details` put in its placeholders ("The daily limit of 25 tokens is reached: 5
 * left today."), else the usual display of an error.
 */
export function declineReason(error: unknown): string {
  if (isApiError(error) && error.code && i18n.exists(error.code, { ns: 'errors' })) {
    const body = isRecord(error.data) ? error.data : {};
    const details = isRecord(body.details) ? body.details : {};
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(details)) {
      values[name] = typeof value === 'number' ? value.toLocaleString('en-US') : String(value);
    }
    return i18n.t(error.code, { ns: 'errors', ...values });
  }
  return errorMessageLines(error).join('\n');
}
