import { createContext, useContext, useEffect, useState } from 'react';
import type { NavOverlays } from './nav-overlay-types';

export type { NavMenuEntry, NavMenuProps, NavOverlays, NavTooltipProps } from './nav-overlay-types';

export const NavOverlaysContext = createContext<NavOverlays | null>(null);

/** The overlays once they are there, else null. */
export const useNavOverlays = (): NavOverlays | null => useContext(NavOverlaysContext);

let loaded: NavOverlays | null = null;

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
        if (live) setOverlays(sidebarOverlays);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [overlays, wanted]);
  return overlays;
}
