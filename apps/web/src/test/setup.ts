import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { useAlertStore } from '@/lib/alert-store';
import { installClassMerge } from '@/lib/class-merge';
import { useAuthStore } from '@/lib/auth-store';
import { queryClient } from '@/lib/query-client';
import { i18n } from '@/locales/i18n';
import { initTestI18n, missingKeys } from './i18n';
import { server } from './server';

// Lazily loaded routes compile on first use, and `npm test` runs these files beside the API's
// (two suites on two cores): a busy machine needs far more than the default second.
configure({ asyncUtilTimeout: 15_000 });

// Components render here outside the signed-in layout that installs it (decision 0049).
installClassMerge();

// jsdom lacks the layout APIs Radix primitives touch.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
// jsdom's Blob has no stream(), which Node's FormData reads an uploaded file with (the body of a
// multipart request would never end).
Blob.prototype.stream ??= function stream(this: Blob) {
  const bytes = this.arrayBuffer();
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async start(controller) {
      controller.enqueue(new Uint8Array(await bytes));
      controller.close();
    },
  });
};

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await initTestI18n();
  // What the app fetches after its first render (issue 6), compiled once here rather than inside
  // the first test that waits for it (settled: a test may make one of them fail).
  await Promise.allSettled([
    import('@/components/feedback/alert-host'),
    import('@/components/feedback/toaster'),
    import('@/components/layout/language-switch'),
    import('@/components/layout/sidebar-overlays'),
    import('@/components/ui/sidebar-sheet'),
    import('@/features/auth/components/user-menu'),
  ]);
  // sonner puts its stylesheet (positions, transitions, colours of the toasts) into <head> when
  // it is imported. jsdom matches every rule of every sheet against each element whose computed
  // style a query asks for (role queries ask for each element they name, and its ancestors), and
  // sonner's ~100 attribute-selector rules were about a tenth of the CPU of the slowest files
  // (decision 0045). No test asserts on the toasts' styles (toBeVisible, pointer-events).
  for (const style of document.head.querySelectorAll('style')) {
    if (style.textContent?.includes('[data-sonner-toaster]')) style.remove();
  }
});

afterEach(async () => {
  cleanup();
  server.resetHandlers();
  queryClient.clear();
  useAlertStore.getState().clear();
  useAuthStore.setState({ user: null, isAuthenticated: false, rememberLocation: true });
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
  await i18n.changeLanguage('en');
  const missing = missingKeys.splice(0);
  expect(missing, 'translation keys used but missing from the catalogues').toEqual([]);
});

afterAll(() => server.close());
