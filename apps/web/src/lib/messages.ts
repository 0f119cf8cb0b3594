import type { TFunction } from 'i18next';
import { i18n } from '@/locales/i18n';

/**
 * The key and values of a contract validation message (`v.text_max?max=200`, as the contract's
 * `validationMessage` writes it; its `parseValidationMessage` reads it the same way): a key the
 * `validation` namespace holds, which has one entry for each of the contract's keys. Read here
 * without the contract's catalogue, which the first load does not carry (decision 0044).
 */
function parseMessage(message: string): { key: string; values: Record<string, string> } | null {
  const at = message.indexOf('?');
  const key = at < 0 ? message : message.slice(0, at);
  if (!key.startsWith('v.') || !i18n.exists(key, { ns: 'validation' })) return null;
  const values: Record<string, string> = {};
  if (at >= 0) {
    for (const pair of message.slice(at + 1).split('&')) {
      const [name = '', value = ''] = pair.split('=');
      if (name) values[decodeURIComponent(name)] = decodeURIComponent(value);
    }
  }
  return { key, values };
}

/**
 * Translates a contract validation message (`v.*`, with its values: `v.text_max?max=200`) from
 * the `validation` namespace; any other text is returned as it is. Components pass the `t` of
 * useTranslation so they re-render when the language changes.
 */
export function translateMessage(message: string, t: TFunction = i18n.t): string {
  const parsed = parseMessage(message);
  return parsed ? t(parsed.key, { ns: 'validation', ...parsed.values }) : message;
}
