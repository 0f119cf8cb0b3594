// The app's own text, read from its catalogues (public/locales), so a journey finds a control by
// what a person reads in English or Chinese rather than by a test id.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Language = 'en' | 'zh';
type Catalogue = { [key: string]: string | Catalogue };

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const catalogues = new Map<Language, Catalogue>();

function catalogue(lng: Language): Catalogue {
  let strings = catalogues.get(lng);
  if (!strings) {
    strings = JSON.parse(
      readFileSync(path.join(WEB_DIR, 'public/locales', lng, 'common.json'), 'utf8'),
    ) as Catalogue;
    catalogues.set(lng, strings);
  }
  return strings;
}

/** The text of `key` (common namespace) in `lng`, `{{name}}` filled from `values` (else empty). */
export function text(lng: Language, key: string, values: Record<string, string> = {}): string {
  const found = key
    .split('.')
    .reduce<string | Catalogue | undefined>(
      (node, part) => (typeof node === 'object' ? node[part] : undefined),
      catalogue(lng),
    );
  if (typeof found !== 'string') throw new Error(`no ${lng} text for ${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

/** `text` bound to one language. */
export const texts =
  (lng: Language) =>
  (key: string, values: Record<string, string> = {}): string =>
    text(lng, key, values);
