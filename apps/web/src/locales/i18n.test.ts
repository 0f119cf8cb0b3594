import { describe, expect, it } from 'vitest';
import { readCookie } from '@/lib/cookies';
import { changeLanguage, detectLanguage, i18n } from './i18n';

describe('the language choice', () => {
  it('is English by default', () => {
    expect(detectLanguage()).toBe('en');
  });

  it('comes from the lang cookie', () => {
    document.cookie = 'lang=zh; path=/';
    expect(detectLanguage()).toBe('zh');
  });

  it('ignores a language we do not offer', () => {
    document.cookie = 'lang=fr; path=/';
    expect(detectLanguage()).toBe('en');
  });

  it('is stored in the lang cookie when changed', async () => {
    await changeLanguage('zh');
    expect(readCookie('lang')).toBe('zh');
    expect(i18n.language).toBe('zh');
    expect(i18n.t('nav.dashboard')).toBe('仪表盘');
    expect(document.documentElement.lang).toBe('zh');
    expect(document.title).toBe('代币管理后台');
  });
});
