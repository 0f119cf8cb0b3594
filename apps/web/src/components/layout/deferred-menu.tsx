import { lazy, Suspense, useState, type ComponentType, type ReactElement } from 'react';

/** What a deferred menu is given besides its own props. */
export interface DeferredMenuProps {
  /** Its button (the menu's trigger, `asChild`). */
  trigger: ReactElement;
  /** The menu opens as soon as it is there: its button was clicked meanwhile. */
  defaultOpen?: boolean;
}

/**
 * A menu whose code (Radix's menu, popper and floating-ui) is fetched when it is about to be used
 * (the pointer comes over its button; the button pressed or clicked, Enter and Space click it too) rather than with the first load (issue 6) or right after it, where its code and render
 * would hold up a phone's main thread (decision 0033). Meanwhile its button, `Trigger`, shows on
 * its own; a press or click on it is kept, and the menu opens when it arrives. The menu is handed
 * the button, so the two look the same (and the menu's chunk needs nothing of the page's).
 */
export function deferMenu<P extends object>(
  load: () => Promise<ComponentType<P & DeferredMenuProps>>,
  Trigger: ComponentType<
    P & { onClick?: () => void; onPointerEnter?: () => void; onPointerDown?: () => void }
  >,
): ComponentType<P> {
  let fetched: Promise<{ default: ComponentType<P & DeferredMenuProps> }> | undefined;
  const fetchMenu = () => (fetched ??= load().then((component) => ({ default: component })));
  const Menu = lazy(fetchMenu);
  function DeferredMenu(props: P) {
    const [openRequested, setOpenRequested] = useState(false);
    const open = () => setOpenRequested(true);
    const idle = (
      <Trigger
        {...props}
        // The pointer coming over the button fetches the code; nothing renders anew until used.
        onPointerEnter={() => void fetchMenu().catch(() => undefined)}
        // A press counts as a click: the menu may arrive between the press and the release.
        onPointerDown={open}
        onClick={open}
      />
    );
    if (!openRequested) return idle;
    return (
      <Suspense fallback={idle}>
        <Menu {...props} trigger={<Trigger {...props} />} defaultOpen />
      </Suspense>
    );
  }
  return DeferredMenu;
}
