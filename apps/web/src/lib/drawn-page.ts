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
