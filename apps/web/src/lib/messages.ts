import type { TFunction } from 'i18next';
import { parseValidationMessage } from '@app/contract/constants';
import { i18n } from '@/locales/i18n';

/**
 * Translates a contract validation message (`v.*`, with its values: `v.text_max?max=200`) from
 * the `validation` namespace; any other text is returned as it is. Components pass the `t` of
 * useTranslation so they re-render when the language changes.
 */
export function translateMessage(message: string, t: TFunction = i18n.t): string {
  const parsed = parseValidationMessage(message);
  return parsed ? t(parsed.key, { ns: 'validation', ...parsed.values }) : message;
}
