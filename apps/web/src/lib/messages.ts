import type { TFunction } from 'i18next';
import { isValidationMessageKey } from '@app/contract/constants';
import { i18n } from '@/locales/i18n';

/**
 * Translates a contract validation key (`v.*`); any other text is returned as it is. Components
 * pass the `t` of useTranslation so they re-render when the language changes.
 */
export function translateMessage(message: string, t: TFunction = i18n.t): string {
  return isValidationMessageKey(message) ? t(message, { ns: 'validation' }) : message;
}
