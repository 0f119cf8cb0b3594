import { createContext, useContext, useEffect, useState } from 'react';
import type { NavOverlays } from './nav-overlay-types';

export type { NavMenuEntry, NavMenuProps, NavOverlays, NavTooltipProps } from './nav-overlay-types';

export const NavOverlaysContext = createContext<NavOverlays | null>(null);

/** The overlays once they are there, else null. */
export const useNavOverlays = (): NavOverlays | null => useContext(NavOverlaysContext);

let loaded: NavOverlays | null = null;

let pointerHeld = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pointerdown', () => (pointerHeld = true), true);
  for (const end of ['pointerup', 'pointercancel'] as const) {
    window.addEventListener(end, () => (pointerHeld = false), true);
  }
}

/**
 * Runs `apply` now, or, while a pointer button is held, once it is released and the click it
 * makes has been dispatched (the click comes after `pointerup`, in the same task). The overlays
 * re-render the sidebar's entries into new elements: swapped in between a press and its release,
 * the press went down on one link and came up on another, which makes no click, and the
 * navigation was lost (a browser test's click on "Summary Report" that went nowhere, 2026-11-26).
 */
export function afterPointerRelease(apply: () => void): void {
  if (!pointerHeld) {
    apply();
    return;
  }
  const released = () => {
    window.removeEventListener('pointerup', released, true);
    window.removeEventListener('pointercancel', released, true);
    setTimeout(apply, 0);
  };
  window.addEventListener('pointerup', released, true);
  window.addEventListener('pointercancel', released, true);
}

/**
 * The overlays, fetched once `wanted` (the sidebar is collapsed to its icons, or the pointer came
 * over it): Radix's tooltip, menu, popper and floating-ui stay out of the first load (issue 6),
 * and their code and the sidebar's re-render stay out of the page's start (decision 0037): they
 * serve only the collapsed sidebar. Until they arrive (or if they cannot be fetched) the sidebar
 * works without them: no tooltips, collapsed groups without their menu.
 */
export function useLoadNavOverlays(wanted: boolean): NavOverlays | null {
  const [overlays, setOverlays] = useState(loaded);
  useEffect(() => {
    if (overlays || !wanted) return;
    let live = true;
    import('./sidebar-overlays')
      .then(({ sidebarOverlays }) => {
        loaded = sidebarOverlays;
        afterPointerRelease(() => {
          if (live) setOverlays(sidebarOverlays);
        });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [overlays, wanted]);
  return overlays;
}
