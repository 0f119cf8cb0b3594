import type { BackendModule, ReadCallback } from 'i18next';
import { CONTRACT_NAMESPACES } from './languages';

type ContractCatalogue = Record<(typeof CONTRACT_NAMESPACES)[number], Record<string, unknown>>;

/**
 * The contract's namespaces of one language (locales/contract-resources.ts), a chunk per language
 * made at build (vite.config.ts, `contractCatalogues`): a page loads its language's only, not
 * both languages with the entry (decision 0044).
 */
const CONTRACT_CATALOGUES: Record<string, () => Promise<{ default: ContractCatalogue }>> = {
  en: () => import('virtual:contract-catalogue/en'),
  zh: () => import('virtual:contract-catalogue/zh'),
};

const isContractNamespace = (ns: string): ns is (typeof CONTRACT_NAMESPACES)[number] =>
  (CONTRACT_NAMESPACES as readonly string[]).includes(ns);

/** Where a catalogue is served: apps/web/public/locales, cache-busted by the build id. */
export const catalogueUrl = (language: string, namespace: string, buildId: string): string =>
  `/locales/${encodeURIComponent(language)}/${encodeURIComponent(namespace)}.json?v=${encodeURIComponent(buildId)}`;

/**
 * i18next's backend for the `common` catalogue: the platform's `fetch`, as the HTTP client is
 * (decision 0012), in place of i18next-http-backend (decision 0026: 2.6 kB less on every first
 * load). Its retry contract is the same: a network failure or a 5xx answer asks i18next to try
 * again (5 times, 350 ms then doubling: `baseOptions`), a 4xx or a body that is no JSON does not.
 */
export function fetchBackend(buildId: string): BackendModule {
  return {
    type: 'backend',
    init() {},
    read(language: string, namespace: string, callback: ReadCallback) {
      if (isContractNamespace(namespace)) {
        const load = CONTRACT_CATALOGUES[language];
        if (!load) {
          callback(new Error(`No contract catalogue for ${language}`), false);
          return;
        }
        load().then(
          (catalogue) => callback(null, catalogue.default[namespace]),
          // A chunk that did not arrive (offline): asked again as a catalogue that did not.
          (error: unknown) => callback(error as Error, true),
        );
        return;
      }
      const url = catalogueUrl(language, namespace, buildId);
      fetch(url, { credentials: 'same-origin' }).then(
        async (response) => {
          if (!response.ok) {
            callback(new Error(`${url}: ${response.status}`), response.status >= 500);
            return;
          }
          let catalogue: unknown;
          try {
            catalogue = await response.json();
          } catch (error) {
            callback(error as Error, false);
            return;
          }
          callback(null, catalogue as Record<string, unknown>);
        },
        (error: unknown) => callback(error as Error, true),
      );
    },
  };
}
