import { types } from 'node:util';
import i18next from 'i18next';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/test/server';
import { baseOptions } from './i18n';
import { catalogueUrl, fetchBackend } from './fetch-backend';

/** One read through the backend: what it gave i18next, and whether it asked for a retry. */
function read(namespace = 'common') {
  return new Promise<{ error: unknown; data: unknown; retry: boolean | undefined }>((resolve) => {
    fetchBackend('build1').read('zh', namespace, (error, data) =>
      resolve({ error, data, retry: typeof data === 'boolean' ? data : undefined }),
    );
  });
}

describe('the catalogue backend on fetch', () => {
  it('reads /locales/{lng}/{ns}.json with the build id', async () => {
    const urls: string[] = [];
    server.use(
      http.get('/locales/zh/common.json', ({ request }) => {
        urls.push(new URL(request.url).search);
        return HttpResponse.json({ app: { name: '代币' } });
      }),
    );
    const result = await read();
    expect(result.error).toBeNull();
    expect(result.data).toEqual({ app: { name: '代币' } });
    expect(urls).toEqual(['?v=build1']);
    expect(catalogueUrl('en', 'common', 'a b')).toBe('/locales/en/common.json?v=a%20b');
  });

  it.each([
    { what: 'a 503', answer: () => new HttpResponse(null, { status: 503 }), retry: true },
    { what: 'a network failure', answer: () => HttpResponse.error(), retry: true },
    { what: 'a 404', answer: () => new HttpResponse(null, { status: 404 }), retry: false },
    {
      what: 'a body that is no JSON',
      answer: () => new HttpResponse('<html>', { status: 200 }),
      retry: false,
    },
  ])('after $what, asks for a retry: $retry', async ({ answer, retry }) => {
    server.use(http.get('/locales/zh/common.json', answer));
    const result = await read();
    // An Error of either realm: the tests run in a vm context (vitest.config.ts), and Node's
    // fetch, outside it, throws its own SyntaxError for a body that is no JSON.
    expect(types.isNativeError(result.error), String(result.error)).toBe(true);
    expect(result.retry).toBe(retry);
  });

  it('loads the catalogue once a server that failed answers again (i18next retries)', async () => {
    let calls = 0;
    server.use(
      http.get('/locales/zh/common.json', () => {
        calls += 1;
        return calls < 3
          ? new HttpResponse(null, { status: 502 })
          : HttpResponse.json({ login: { submit: '登录' } });
      }),
    );
    const instance = i18next.createInstance();
    // Chinese alone (no English fallback to fetch), with the app's retry policy.
    await instance
      .use(fetchBackend('build1'))
      .init({ ...baseOptions('zh'), fallbackLng: false, ns: ['common'] });
    expect(calls).toBe(3);
    expect(instance.t('login.submit')).toBe('登录');
  });
});
