import { act } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferMenu, type DeferredMenuProps } from '@/components/layout/deferred-menu';
import { useAfterFirstPaint } from '@/hooks/use-after-first-paint';
import { useIsMobile } from '@/hooks/use-is-mobile';
import { findDrawnPage, openDrawnPage, setDrawnPage, wrapDrawnPage } from './drawn-page';
import { hasTakenServerQueries, SERVER_QUERIES_ID, takeServerQueries } from './server-queries';

function Probe() {
  const isPainted = useAfterFirstPaint();
  const isMobile = useIsMobile();
  return (
    <p>
      {isPainted ? 'painted' : 'waiting'} {isMobile ? 'phone' : 'wide'}
    </p>
  );
}

/** Draws `tree` as the server does, then hydrates it as main.tsx does, with what it was drawn for. */
async function drawThenHydrate(tree: React.ReactElement, phone: boolean) {
  setDrawnPage({ phone });
  const html = renderToString(tree);
  setDrawnPage(null);
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const drawn = container.firstElementChild;
  const errors: unknown[] = [];
  setDrawnPage({ phone });
  await act(async () => {
    hydrateRoot(container, tree, { onRecoverableError: (error) => errors.push(error) });
  });
  setDrawnPage(null);
  return { html, container, drawn, errors };
}

afterEach(() => {
  setDrawnPage(null);
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

// Decision 0051: the dashboard the API draws is hydrated, so its first render in the browser draws
// exactly what the server drew.
describe('the page the server draws and its hydration', () => {
  it.each([true, false])(
    'are drawn alike, painted whole and for the screen guessed (phone: %s)',
    async (phone) => {
      // The browser's screen is what it is (here a wide one): read once hydrated.
      const { html, container, drawn, errors } = await drawThenHydrate(<Probe />, phone);
      expect(html).toBe(`<p>painted<!-- --> <!-- -->${phone ? 'phone' : 'wide'}</p>`);
      expect(errors).toEqual([]);
      // The same node, adopted; then the screen's own width.
      expect(container.firstElementChild).toBe(drawn);
      expect(container.textContent).toBe('painted wide');
    },
  );

  it.each([true, false])(
    'wraps the markup with what it was drawn for, closed to the pointer until opened (phone: %s)',
    (phone) => {
      const root = document.createElement('div');
      root.innerHTML = wrapDrawnPage('<h1>Dashboard</h1>', { phone });
      const found = findDrawnPage(root);
      expect(found?.page).toEqual({ phone });
      expect(found?.wrapper.style.display).toBe('contents');
      expect(found?.wrapper.style.pointerEvents).toBe('none');
      expect(found?.wrapper.querySelector('h1')).toHaveTextContent('Dashboard');
      openDrawnPage(found!.wrapper);
      expect(found?.wrapper.style.pointerEvents).toBe('');
      // Only as #root's own child, and not for the sign-in page drawn at build time.
      expect(findDrawnPage(found!.wrapper)).toBeNull();
    },
  );

  it('holds back nothing on the pages the browser draws alone', () => {
    expect(renderToString(<Probe />)).toBe('<p>waiting<!-- --> <!-- -->wide</p>');
  });

  it('draws a deferred menu as its button on both sides, then the menu once its code is there', async () => {
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const Menu = ({ trigger }: { label: string } & DeferredMenuProps) => (
      <div data-menu="">{trigger}</div>
    );
    const Deferred = deferMenu<{ label: string }>(
      () => arrived.then(() => Menu),
      ({ label, ...props }) => (
        <button type="button" {...props}>
          {label}
        </button>
      ),
    );
    const { html, container, errors } = await drawThenHydrate(<Deferred label="Menu" />, false);
    // No Suspense boundary left unfinished (React's #419 on hydration).
    expect(html).toBe('<button type="button">Menu</button>');
    expect(errors).toEqual([]);
    expect(container.querySelector('[data-menu]')).toBeNull();
    await act(async () => arrive());
    expect(container.querySelector('[data-menu] button')).toHaveTextContent('Menu');
  });

  it("starts the cache with the server's answers only for the stored user, and says so", () => {
    const put = (userId: number) => {
      const script = document.createElement('script');
      script.type = 'application/json';
      script.id = SERVER_QUERIES_ID;
      script.textContent = JSON.stringify({
        user_id: userId,
        queries: [{ queryKey: ['self-info'], data: { user_id: userId } }],
      });
      document.body.append(script);
    };
    put(7);
    expect(takeServerQueries(8)).toEqual([]);
    expect(hasTakenServerQueries()).toBe(false);
    expect(document.getElementById(SERVER_QUERIES_ID)).toBeNull();
    put(7);
    expect(takeServerQueries(7)).toHaveLength(1);
    expect(hasTakenServerQueries()).toBe(true);
  });
});
