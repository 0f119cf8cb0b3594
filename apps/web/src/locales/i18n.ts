import i18next, { type InitOptions } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readCookie, writeCookie } from '@/lib/cookies';
import { fetchBackend } from './fetch-backend';
import { CONTRACT_NAMESPACES, LANGUAGES, type Language } from './languages';

export { LANGUAGES, type Language };
export const DEFAULT_LANGUAGE: Language = 'en';
export const LANGUAGE_COOKIE = 'lang';
const LANGUAGE_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;

/** The one i18next instance of the app; lib code (toasts, alerts) translates through it too. */
export const i18n = i18next.createInstance();

// The page follows the language: <html lang> for screen readers and fonts, and its title.
// Written only when they change: setting <html lang>, even to the same value, invalidated the
// whole page's style, ~8 ms of the sign-in page's start (×4 on Lighthouse's phone; decision 0049).
i18n.on('languageChanged', (lng) => {
  const root = document.documentElement;
  if (root.lang !== lng) root.lang = lng;
  const title = i18n.exists('app.name') ? i18n.t('app.name') : undefined;
  if (title !== undefined && document.title !== title) document.title = title;
});

export const isLanguage = (value: unknown): value is Language =>
  (LANGUAGES as readonly unknown[]).includes(value);

/** The language kept in the `lang` cookie (spec 9), English when absent or unknown. */
export function detectLanguage(): Language {
  const fromCookie = readCookie(LANGUAGE_COOKIE);
  return isLanguage(fromCookie) ? fromCookie : DEFAULT_LANGUAGE;
}

/** Options shared by the app and the tests. */
export function baseOptions(lng: Language): InitOptions {
  return {
    lng,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: ['common', ...CONTRACT_NAMESPACES],
    defaultNS: 'common',
    // i18next's backend connector retries a failed read 5 times, waiting 350 ms and then twice as
    // long each time (node_modules/i18next: `read(…, tried + 1, wait * 2)`); the backend
    // (fetch-backend.ts) asks for a retry on network failures and 5xx answers only.
    maxRetries: 5,
    retryTimeout: 350,
    interpolation: { escapeValue: false },
  };
}

/**
 * Starts i18next: `common` comes over HTTP from /locales/{lng}/common.json (apps/web/public), the
 * contract namespaces from a chunk per language made at build (fetch-backend.ts, decision 0044),
 * both at once; a language switch fetches the other language's.
 */
export function initI18n(lng: Language = detectLanguage()) {
  return (
    i18n
      .use(fetchBackend(__BUILD_ID__))
      .use(initReactI18next)
      // The catalogues are asked for now, not after a setTimeout: with no bundled resources
      // i18next otherwise defers its first read, which put `common.json` and the contract chunk
      // behind the entry's evaluation and the route chunks (decision 0044). Reads stay async.
      .init({ ...baseOptions(lng), initAsync: false })
  );
}

/** Switches the language and remembers it in the `lang` cookie (path /). */
export async function changeLanguage(lng: Language): Promise<void> {
  writeCookie(LANGUAGE_COOKIE, lng, LANGUAGE_COOKIE_MAX_AGE);
  await i18n.changeLanguage(lng);
}
