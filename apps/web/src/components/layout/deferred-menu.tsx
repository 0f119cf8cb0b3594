import {
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type KeyboardEvent,
  type PointerEvent,
  type ReactElement,
  type RefObject,
} from 'react';

/** What a deferred menu is given besides its own props. */
export interface DeferredMenuProps {
  /** Its button (the menu's trigger, `asChild`). */
  trigger: ReactElement;
  /** The menu opens as soon as it is there: its button was pressed meanwhile. */
  defaultOpen?: boolean;
}

/** What the button is handed: the placeholder's handlers, and a ref to its element. */
export interface DeferredTriggerProps {
  ref?: RefObject<HTMLButtonElement | null>;
  onClick?: () => void;
  onPointerDown?: (event: PointerEvent<HTMLButtonElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLButtonElement>) => void;
}

/** The keys that open a Radix dropdown from its trigger. */
const OPENING_KEYS = ['Enter', ' ', 'ArrowDown'];

/*
 * The menus' code waits for this gate. It is open, except while the signed-in shell holds it at
 * the app's start (`holdDeferredMenus`): fetched as the page renders, the menus' ~33 kB and
 * their render shared the phone's bandwidth and main thread with the page's first content
 * (Lighthouse's dashboard on a phone: they loaded between its first paint and its largest one).
 */
let gate: Promise<void> = Promise.resolve();
let openGate: (() => void) | null = null;
let hasHeld = false;

/**
 * Holds the deferred menus' code until `releaseDeferredMenus` is called, and at most `maxMs`
 * (`Infinity`: until then). Only the first call holds (the app's first page); later calls do
 * nothing. A press on a menu's button releases it at once.
 */
export function holdDeferredMenus(maxMs = 4000): void {
  if (hasHeld) return;
  hasHeld = true;
  gate = new Promise<void>((resolve) => {
    const timer = Number.isFinite(maxMs) ? setTimeout(releaseDeferredMenus, maxMs) : undefined;
    openGate = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

/** Lets the held menus' code come (see `holdDeferredMenus`). */
export function releaseDeferredMenus(): void {
  openGate?.();
  openGate = null;
}

/**
 * A menu whose code (Radix's menu, popper and floating-ui) is fetched once the page is on screen
 * rather than with the first load (issue 6). Meanwhile its button, `Trigger`, shows on its own;
 * a press on it is kept, and the menu opens when it arrives. The menu is handed the button, so
 * the two look the same (and the menu's chunk needs nothing of the page's).
 *
 * Not `lazy` in a Suspense boundary: the page the API draws (decision 0050) is hydrated, and
 * `renderToString` cannot wait for a lazy component, so the boundary came to the browser as "not
 * finished" and React reported it (#419) before drawing it again. The button is what the server
 * and the browser both draw first; the menu replaces it once its code is there.
 *
 * The placeholder answers the events the menu's own trigger answers (Radix opens on
 * `pointerdown` and on Enter, Space or ArrowDown), not only `click`: a press whose pointer went
 * down on the placeholder and came up on the menu's button, swapped in between as the code
 * arrived, makes no `click` on either (the browser sends it to their common parent) and no
 * `pointerdown` on the menu's button, so it was lost. The focus on the placeholder moves to the
 * menu's button too.
 */
export function deferMenu<P extends object>(
  load: () => Promise<ComponentType<P & DeferredMenuProps>>,
  Trigger: ComponentType<P & DeferredTriggerProps>,
): ComponentType<P> {
  type Menu = ComponentType<P & DeferredMenuProps>;
  // One fetch for every instance; forgotten if it failed, so that the next asks again.
  let arrived: Menu | null = null;
  let loading: Promise<Menu> | null = null;
  const loadMenu = (): Promise<Menu> =>
    (loading ??= gate.then(load).then(
      (menu) => (arrived = menu),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));

  function Placeholder({
    props,
    onPress,
    hadFocus,
  }: {
    props: P;
    onPress: () => void;
    hadFocus: RefObject<boolean>;
  }) {
    const ref = useRef<HTMLButtonElement>(null);
    // Runs as the arrived menu replaces it, while its button is still in the document.
    useLayoutEffect(() => {
      const button = ref.current;
      return () => {
        hadFocus.current = button !== null && document.activeElement === button;
      };
    }, [hadFocus]);
    return (
      <Trigger
        {...props}
        ref={ref}
        onClick={onPress}
        onPointerDown={(event) => {
          if (event.button === 0 && !event.ctrlKey) onPress();
        }}
        onKeyDown={(event) => {
          if (OPENING_KEYS.includes(event.key)) onPress();
        }}
      />
    );
  }

  function Arrived({
    Menu,
    props,
    isOpenRequested,
    hadFocus,
  }: {
    Menu: Menu;
    props: P;
    isOpenRequested: boolean;
    hadFocus: RefObject<boolean>;
  }) {
    const ref = useRef<HTMLButtonElement>(null);
    useLayoutEffect(() => {
      if (hadFocus.current) ref.current?.focus();
    }, [hadFocus]);
    return (
      <Menu {...props} trigger={<Trigger {...props} ref={ref} />} defaultOpen={isOpenRequested} />
    );
  }

  function DeferredMenu(props: P) {
    const [isOpenRequested, setOpenRequested] = useState(false);
    const [menu, setMenu] = useState<Menu | null>(() => arrived);
    const hadFocus = useRef(false);
    // Asked for once drawn in the browser (never on the server, whose render must be the
    // button: the browser hydrates it), and again on a press if the fetch failed.
    useEffect(() => {
      if (menu) return;
      let mounted = true;
      loadMenu().then(
        (loaded) => {
          if (mounted) setMenu(() => loaded);
        },
        () => {
          // The button stays; a press asks again (a failed chunk is not cached by the browser).
        },
      );
      return () => {
        mounted = false;
      };
    }, [menu, isOpenRequested]);
    const placeholder = (
      <Placeholder
        props={props}
        onPress={() => {
          setOpenRequested(true);
          releaseDeferredMenus();
        }}
        hadFocus={hadFocus}
      />
    );
    if (!menu) return placeholder;
    // The menu may still wait for something of its own (a catalogue): its button meanwhile.
    // Keyed by the press: a menu already mounted but hidden behind its fallback (still waiting
    // for its catalogue) would not read `defaultOpen` again, and the press on the placeholder
    // shown meanwhile was lost. Mounted afresh, it opens.
    return (
      <Suspense fallback={placeholder}>
        <Arrived
          key={isOpenRequested ? 'pressed' : 'idle'}
          Menu={menu}
          props={props}
          isOpenRequested={isOpenRequested}
          hadFocus={hadFocus}
        />
      </Suspense>
    );
  }
  return DeferredMenu;
}
