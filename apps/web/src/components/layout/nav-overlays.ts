import {
  createContext,
  useContext,
  useEffect,
  useState,
  type ComponentType,
  type ReactElement,
  type ReactNode,
} from 'react';

export interface NavMenuEntry {
  href: string;
  label: string;
  current: boolean;
}

export interface NavTooltipProps {
  label: string;
  hidden: boolean;
  children: ReactElement;
}

export interface NavMenuProps {
  trigger: ReactElement;
  label: string;
  entries: NavMenuEntry[];
}

/** The sidebar's overlays: its tooltips and the menus of collapsed groups. */
export interface NavOverlays {
  /** Around the entries: their tooltips share the delays of spec 9. */
  Provider: ComponentType<{ children: ReactNode }>;
  /** A button's label beside it, while the sidebar is collapsed to icons. */
  Tooltip: ComponentType<NavTooltipProps>;
  /** A collapsed group's entries in a menu beside its button. */
  Menu: ComponentType<NavMenuProps>;
}

export const NavOverlaysContext = createContext<NavOverlays | null>(null);

/** The overlays once they are there, else null. */
export const useNavOverlays = (): NavOverlays | null => useContext(NavOverlaysContext);

let loaded: NavOverlays | null = null;

/**
 * The overlays, fetched once the sidebar is on screen: Radix's tooltip, menu, popper and
 * floating-ui stay out of the first load (issue 6). Until they arrive (or if they cannot be
 * fetched) the sidebar works without them: no tooltips, collapsed groups without their menu.
 */
export function useLoadNavOverlays(): NavOverlays | null {
  const [overlays, setOverlays] = useState(loaded);
  useEffect(() => {
    if (overlays) return;
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
  }, [overlays]);
  return overlays;
}
