import { lazy, Suspense, useState, type ComponentType, type ReactElement } from 'react';

/** What a deferred menu is given besides its own props. */
export interface DeferredMenuProps {
  /** Its button (the menu's trigger, `asChild`). */
  trigger: ReactElement;
  /** The menu opens as soon as it is there: its button was clicked meanwhile. */
  defaultOpen?: boolean;
}

/**
 * A menu whose code (Radix's menu, popper and floating-ui) is fetched once the page is on screen
 * rather than with the first load (issue 6). Meanwhile its button, `Trigger`, shows on its own;
 * a click on it is kept, and the menu opens when it arrives. The menu is handed the button, so
 * the two look the same (and the menu's chunk needs nothing of the page's).
 */
export function deferMenu<P extends object>(
  load: () => Promise<ComponentType<P & DeferredMenuProps>>,
  Trigger: ComponentType<P & { onClick?: () => void }>,
): ComponentType<P> {
  const Menu = lazy(() => load().then((component) => ({ default: component })));
  function DeferredMenu(props: P) {
    const [openRequested, setOpenRequested] = useState(false);
    return (
      <Suspense fallback={<Trigger {...props} onClick={() => setOpenRequested(true)} />}>
        <Menu {...props} trigger={<Trigger {...props} />} defaultOpen={openRequested} />
      </Suspense>
    );
  }
  return DeferredMenu;
}
