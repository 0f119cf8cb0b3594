import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, ROLES, UI_MESSAGES, VALIDATION_MESSAGES } from '@app/contract';
import { COMMON_CATALOGUES } from '@/test/i18n';
import { contractResources, LANGUAGES } from './contract-resources';
import { baseOptions, i18n } from './i18n';

/** Every leaf key path of a nested catalogue. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keyPaths(child, prefix ? `${prefix}.${key}` : key),
  );
}

const emptyLeaves = (value: unknown): string[] =>
  keyPaths(value).filter((path) => {
    const leaf = path
      .split('.')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], value);
    return typeof leaf !== 'string' || leaf.trim() === '';
  });

describe('the translation catalogues', () => {
  it('have the same keys in English and Chinese (common)', () => {
    const en = keyPaths(COMMON_CATALOGUES.en).sort();
    const zh = keyPaths(COMMON_CATALOGUES.zh).sort();
    expect(
      en.filter((key) => !zh.includes(key)),
      'in en, missing in zh',
    ).toEqual([]);
    expect(
      zh.filter((key) => !en.includes(key)),
      'in zh, missing in en',
    ).toEqual([]);
    expect(emptyLeaves(COMMON_CATALOGUES.en)).toEqual([]);
    expect(emptyLeaves(COMMON_CATALOGUES.zh)).toEqual([]);
  });

  it('have the same keys in English and Chinese (generated from the contract)', () => {
    expect(keyPaths(contractResources('zh')).sort()).toEqual(
      keyPaths(contractResources('en')).sort(),
    );
    expect(emptyLeaves(contractResources('zh'))).toEqual([]);
  });

  it('translate every error code of the contract in both languages', () => {
    for (const lng of LANGUAGES) {
      for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
        expect(i18n.exists(code, { ns: 'errors', lng }), `${lng} errors:${code}`).toBe(true);
        expect(i18n.t(code, { ns: 'errors', lng })).toBe(entry[lng]);
      }
      for (const [key, entry] of Object.entries(UI_MESSAGES)) {
        expect(i18n.t(key, { ns: 'messages', lng })).toBe(entry[lng]);
      }
    }
  });

  it('translate every validation key of the contract in both languages, as schemas spell it', () => {
    for (const lng of LANGUAGES) {
      for (const [key, entry] of Object.entries(VALIDATION_MESSAGES)) {
        expect(i18n.exists(key, { ns: 'validation', lng }), `${lng} ${key}`).toBe(true);
        expect(i18n.t(key, { ns: 'validation', lng })).toBe(entry[lng]);
      }
    }
  });

  it('name every role in both languages', () => {
    for (const lng of LANGUAGES) {
      for (const role of ROLES) {
        expect(i18n.exists(`labels.${role}`, { ns: 'roles', lng }), `${lng} ${role}`).toBe(true);
      }
    }
  });

  it('load with English as default and fallback, and the retry policy of spec 9', () => {
    const options = baseOptions('zh');
    expect(options.fallbackLng).toBe('en');
    expect(options.supportedLngs).toEqual(['en', 'zh']);
    expect(options.maxRetries).toBe(5);
    expect(options.retryTimeout).toBe(350);
  });
});

describe('the codes and messages of issue 14', () => {
  it('show each new refusal in English and Chinese, not a bare code', () => {
    const codes = [
      'AMOUNT_TOO_LARGE',
      'TOO_MANY_FILES',
      'FILE_TOO_MANY_COLUMNS',
      'FILE_CELL_TOO_LONG',
      'REQUEST_INVALID',
      'REQUEST_TIMEOUT',
      'URI_TOO_LONG',
      'HEADERS_TOO_LARGE',
    ];
    const keys = [
      'date_not_in_calendar',
      'year_range',
      'month_invalid',
      'date_order',
      'cursor_invalid',
      'number_range',
      'amount_too_large',
      'subtotal_too_large',
      'balance_cap',
    ];
    for (const lng of LANGUAGES) {
      for (const code of codes) {
        const text = i18n.t(code, { ns: 'errors', lng });
        expect(text, `${lng} ${code}`).not.toBe(code);
        expect(text).toBe(ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE][lng]);
      }
      for (const key of keys) {
        expect(i18n.t(`v.${key}`, { ns: 'validation', lng }), `${lng} v.${key}`).toBe(
          VALIDATION_MESSAGES[`v.${key}` as keyof typeof VALIDATION_MESSAGES][lng],
        );
      }
    }
  });
});
