import { afterEach, describe, expect, it } from 'vitest';
import { readCookie, writeCookie } from './cookies';

describe('cookies', () => {
  afterEach(() => {
    Reflect.deleteProperty(document, 'cookie');
  });

  it('writes a cookie for the whole site with a max age', () => {
    const written: string[] = [];
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get: () => '',
      set: (value: string) => written.push(value),
    });
    writeCookie('lang', 'zh', 60);
    expect(written).toEqual(['lang=zh; path=/; max-age=60; SameSite=Lax']);
  });

  it('reads a cookie among others', () => {
    writeCookie('sidebar_state', 'false', 60);
    writeCookie('lang', 'zh', 60);
    expect(readCookie('lang')).toBe('zh');
    expect(readCookie('sidebar_state')).toBe('false');
    expect(readCookie('missing')).toBeUndefined();
  });
});
