import { initReactI18next } from 'react-i18next';
import enCommon from '../../public/locales/en/common.json';
import zhCommon from '../../public/locales/zh/common.json';
import { bundledContractResources } from '@/locales/contract-resources';
import { baseOptions, i18n } from '@/locales/i18n';

export const COMMON_CATALOGUES = { en: enCommon, zh: zhCommon } as const;

/** Keys the code asked for that no catalogue holds; the test setup fails a test that adds any. */
export const missingKeys: string[] = [];

/** The app's i18n instance with every catalogue bundled (no HTTP), synchronously ready. */
export async function initTestI18n(): Promise<void> {
  const contract = bundledContractResources();
  await i18n.use(initReactI18next).init({
    ...baseOptions('en'),
    resources: {
      en: { common: COMMON_CATALOGUES.en, ...contract.en },
      zh: { common: COMMON_CATALOGUES.zh, ...contract.zh },
    },
    initAsync: false,
    saveMissing: true,
    missingKeyHandler: (lngs, ns, key) => {
      missingKeys.push(`${lngs.join(',')}|${ns}:${key}`);
    },
  });
}
