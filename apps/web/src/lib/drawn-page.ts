/**
 * The page the API draws (decision 0050) while it is drawn, on the server, and while the browser
 * hydrates it (decision 0051). React's first render in the browser must draw exactly the markup
 * the server sent, so what that markup was drawn for is set here for both renders:
 * - `phone`: drawn for a phone or a wide screen, as the request's headers told the API
 *   (`useIsMobile` answers it until the browser's own width is read, right after);
 * - the page is on screen already, so what a page holds back until its first paint (the
 *   dashboard's chart, `useAfterFirstPaint`) is drawn at once.
 * `null` otherwise: every other render.
 */
export interface DrawnPage {
  phone: boolean;
}

let drawn: DrawnPage | null = null;

export function setDrawnPage(page: DrawnPage | null): void {
  drawn = page;
}

export function drawnPage(): DrawnPage | null {
  return drawn;
}

/** The attribute of the wrapper around the markup the server drew (`#root`'s only child). */
const DRAWN_FOR_ATTRIBUTE = 'data-server-rendered';

/**
 * The server's markup in its wrapper, which says what it was drawn for. The app hydrates the
 * wrapper's content (main.tsx). Until then its controls would do nothing, so they take no press
 * (`pointer-events`: inherited, and the browser updates it alone when it goes, where removing
 * `inert` recomputed the whole page's style, ~100 ms on a phone).
 */
export function wrapDrawnPage(html: string, page: DrawnPage): string {
  const drawnFor = page.phone ? 'phone' : 'wide';
  return `<div ${DRAWN_FOR_ATTRIBUTE}="${drawnFor}" style="display:contents;pointer-events:none">${html}</div>`;
}

/** The wrapper of a page the server drew into `root` (`wrapDrawnPage`) and what it was drawn for. */
export function findDrawnPage(root: HTMLElement): { wrapper: HTMLElement; page: DrawnPage } | null {
  const wrapper = root.querySelector<HTMLElement>(`:scope > [${DRAWN_FOR_ATTRIBUTE}]`);
  if (!wrapper) return null;
  return { wrapper, page: { phone: wrapper.getAttribute(DRAWN_FOR_ATTRIBUTE) === 'phone' } };
}

/** Opens the drawn page to the pointer, once the app has hydrated it. */
export function openDrawnPage(wrapper: HTMLElement): void {
  wrapper.style.removeProperty('pointer-events');
}

/**
 * Keeps the last press made on the drawn page while it takes none (issue 41 item 6: on a busy
 * machine the first press on the user menu or a sidebar group was lost), from now until the
 * returned function is called, once the app has hydrated the page and opened it to the pointer:
 * the press is then made again on what is at its point, as the browser sends one, so that a Radix
 * trigger (opened on pointer down), a collapsible (on click) and a link (its click) each answer
 * it. A pointer down whose default was prevented (a Radix trigger's when it opens) is followed by
 * no mouse events and moves no focus, as in the browser. Nothing is made again if the page has
 * scrolled since, if the point is not on the drawn page, or when called with `false` (the drawn
 * page is replaced, not hydrated). Small: it is in every page's first load.
 */
export function keepEarlyPress(wrapper: HTMLElement): (again?: boolean) => void {
  let press: MouseEvent | null = null;
  let scrolled = '';
  const onClick = (event: MouseEvent) => {
    if (!event.isTrusted || event.button !== 0) return;
    press = event;
    scrolled = `${scrollX},${scrollY}`;
  };
  addEventListener('click', onClick, true);
  return (again = true) => {
    removeEventListener('click', onClick, true);
    const at = press;
    const target =
      again && at && scrolled === `${scrollX},${scrollY}`
        ? document.elementFromPoint(at.clientX, at.clientY)
        : null;
    if (!at || !target || !wrapper.contains(target)) return;
    const init: PointerEventInit = {
      ...pointAt(at),
      bubbles: true,
      cancelable: true,
      composed: true,
      button: 0,
      isPrimary: true,
      pointerType: 'mouse',
    };
    const send = (type: string, Kind: typeof MouseEvent = MouseEvent) =>
      target.dispatchEvent(new Kind(type, init));
    const mouseToo = send('pointerdown', PointerEvent);
    if (mouseToo && send('mousedown'))
      target.closest<HTMLElement>('button,a,input,[tabindex]')?.focus();
    send('pointerup', PointerEvent);
    if (mouseToo) send('mouseup');
    send('click');
  };
}

const pointAt = ({ clientX, clientY }: MouseEvent) => ({ clientX, clientY });
