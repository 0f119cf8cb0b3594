import type { ComponentType, ReactElement, ReactNode } from 'react';

// The overlays' shapes, apart from both the loader (nav-overlays.ts) and the lazily loaded
// implementation (sidebar-overlays.tsx), so that neither imports the other back.

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
