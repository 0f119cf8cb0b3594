import { i18n } from '@/locales/i18n';
import { isApiError } from './api-error';
import { capitalise } from './text';
import { translateMessage } from './messages';
import { wantToaster } from './toaster-demand';

const unexpected = (): string => i18n.t('unexpected', { ns: 'messages' });

const hasNoData = (data: unknown): boolean => data === undefined || data === null || data === '';

/**
 * The display rule of spec 8, in the current language:
 * 1. no response data → the generic message;
 * 2. a metadata object → one `field: message` line per field (`v.*` messages translated);
 * 3. a catalogue code → its message;
 * 4. the server message, capitalised → else the generic message.
 */
export function errorMessageLines(error: unknown): string[] {
  if (!isApiError(error) || hasNoData(error.data)) return [unexpected()];
  const metadata = error.metadata;
  if (metadata && Object.keys(metadata).length > 0) {
    return Object.entries(metadata).map(
      ([field, message]) => `${field}: ${translateMessage(String(message))}`,
    );
  }
  // A code of the contract's catalogue: the `errors` namespace holds one entry for each (a test
  // holds them equal), without the catalogue itself in the first load (decision 0044).
  if (error.code && i18n.exists(error.code, { ns: 'errors' })) {
    return [i18n.t(error.code, { ns: 'errors' })];
  }
  return [error.message ? capitalise(error.message) : unexpected()];
}

/**
 * Shows a failure as a toast, unless a global alert already told the user about it. The toast
 * library is fetched on first use (and by the Toaster once wanted), not with the first load
 * (issue 6).
 */
export function showErrorToast(error: unknown): void {
  if (isApiError(error) && error.alerted) return;
  const message = errorMessageLines(error).join('\n');
  wantToaster();
  void import('sonner').then(({ toast }) => {
    // The id folds identical failures (e.g. parallel queries) into one toast.
    toast.error(message, { id: message, classNames: { title: 'whitespace-pre-line' } });
  });
}
