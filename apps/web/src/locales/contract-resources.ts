import { ROLE_BADGES, ROLE_LABELS, VALIDATION_MESSAGES } from '@app/contract/constants';
import { ERROR_CATALOGUE, UI_MESSAGES } from '@app/contract/errors';

import { LANGUAGES, type Language } from './languages';

export { CONTRACT_NAMESPACES, LANGUAGES, type Language } from './languages';

type Bilingual = { readonly en: string; readonly zh: string };

function pick(
  entries: Record<string, Bilingual | undefined>,
  lng: Language,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, entry] of Object.entries(entries)) if (entry) result[key] = entry[lng];
  return result;
}

/**
 * The namespaces generated from the contract, so wording lives in one place (packages/contract):
 * - `validation`: `{ v: { required, … } }`, so a schema's message key `v.required` resolves as is;
 * - `errors`: one entry per ERROR_CATALOGUE code;
 * - `messages`: the UI_MESSAGES of spec 8 (`unexpected`, `unknown`, …);
 * - `roles`: `labels` and `badges`.
 */
export function contractResources(lng: Language) {
  const validation: Record<string, string> = {};
  for (const [key, entry] of Object.entries(VALIDATION_MESSAGES)) {
    validation[key.replace(/^v\./, '')] = entry[lng];
  }
  return {
    validation: { v: validation },
    errors: pick(ERROR_CATALOGUE, lng),
    messages: pick(UI_MESSAGES, lng),
    roles: { labels: pick(ROLE_LABELS, lng), badges: pick(ROLE_BADGES, lng) },
  };
}

/** Both languages at once: for rendering in Node (the sign-in page at build) and the unit tests. */
export const bundledContractResources = () =>
  Object.fromEntries(LANGUAGES.map((lng) => [lng, contractResources(lng)]));
