/**
 * /till in the back office (main.tsx's router: a link of its navigation, the way back after
 * sign-in) hands over to the till's own page (till-main.tsx) by loading the document again; the
 * server answers /till with it. Marked in this tab, so that a build without the till's page (the
 * server answered with the back office again) draws the till in the back office instead of
 * loading the page over and over.
 */
const HANDED_OVER = 'till-handed-over';
/** A hand-over this recent that came back to the back office did not reach the till's page. */
const WINDOW_MS = 10_000;

/** Decided once per document: React may ask twice in a render (StrictMode). */
let decided: boolean | undefined;

/** Whether the back office should hand /till over now (else it draws the till itself). */
export function shouldHandOver(): boolean {
  decided ??= decide(Date.now());
  return decided;
}

function decide(now: number): boolean {
  try {
    const last = Number(sessionStorage.getItem(HANDED_OVER) ?? NaN);
    if (Number.isFinite(last) && now - last < WINDOW_MS) {
      sessionStorage.removeItem(HANDED_OVER);
      return false;
    }
    sessionStorage.setItem(HANDED_OVER, String(now));
    return true;
  } catch {
    return false;
  }
}

/** The till's page has loaded: the next hand-over starts afresh. */
export function handedOver(): void {
  try {
    sessionStorage.removeItem(HANDED_OVER);
  } catch {
    // Nothing was kept.
  }
}
