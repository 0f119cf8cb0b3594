import {
  Component,
  createContext,
  startTransition,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import {
  matchRoutes,
  Outlet,
  Router,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  UNSAFE_createMemoryHistory as createMemoryHistory,
  useLocation,
  useRoutes,
  type Location,
  type Navigator,
  type Params,
  type RouteMatch,
  type RouteObject,
  type To,
} from 'react-router';

/**
 * The app's router (decision 0062): React Router's declarative mode (`<Router>`, `useRoutes`,
 * `matchRoutes`, `<Link>`, the hooks) driven by this module, instead of its data mode
 * (`createBrowserRouter`). The data mode's router core is code every first load carried (about
 * 17 kB gzip) for the part of it the app uses, which is this:
 * - a route table of `RouteObject`s with `lazy` modules (`{ Component }`), a `loader` started
 *   beside them and awaited with them, a `handle`, an `ErrorBoundary` and a `HydrateFallback` on
 *   the root;
 * - a location is drawn only once the route modules and loaders it matches are ready: until
 *   then the page on screen stays, and `useNavigating()` says a navigation is on its way;
 * - an error thrown by a route's module, its loader or its render shows the nearest
 *   `ErrorBoundary`, until the next location.
 * The table's other fields (actions, `shouldRevalidate`, lazy objects…) are the data mode's and
 * are not read here. A loader runs at every location change that matches its route.
 */

type History = ReturnType<typeof createBrowserHistory>;

/** What the router draws: the last location whose modules and loaders were ready. */
export interface RouterState {
  /** False until the first location is ready: the root's `HydrateFallback` shows meanwhile. */
  initialized: boolean;
  location: Location;
  /** True while a later location's modules or loaders are on their way. */
  navigating: boolean;
  matches: RouteMatch<string, RouteObject>[];
  /** The routes whose module or loader failed at `location`, with the error. */
  failures: ReadonlyMap<RouteObject, unknown>;
}

/** Route modules loaded, shared by every router of the page (and the server's renders). */
const modules = new WeakMap<RouteObject, { Component?: ComponentType | null }>();

type LoaderArgs = { request: Request; params: Params; context: undefined };

/** The modules and loaders of the routes `location` matches, loaded and run. */
export async function prepare(
  routes: RouteObject[],
  location: Location | string,
  origin = 'http://localhost',
): Promise<Pick<RouterState, 'matches' | 'failures'>> {
  const matches = matchRoutes(routes, location) ?? [];
  const path =
    typeof location === 'string' ? location : location.pathname + location.search + location.hash;
  const request = new Request(new URL(path, origin));
  const failures = new Map<RouteObject, unknown>();
  const fail = (route: RouteObject) => (error: unknown) => {
    if (!failures.has(route)) failures.set(route, error);
  };
  await Promise.all(
    matches.flatMap(({ route, params }) => {
      const work: Promise<unknown>[] = [];
      if (typeof route.lazy === 'function' && !modules.has(route)) {
        const load = route.lazy as () => Promise<{ Component?: ComponentType | null }>;
        work.push(load().then((module) => void modules.set(route, module), fail(route)));
      }
      if (typeof route.loader === 'function') {
        const loader = route.loader as (args: LoaderArgs) => unknown;
        work.push(
          Promise.resolve()
            .then(() => loader({ request, params, context: undefined }))
            .catch(fail(route)),
        );
      }
      return work;
    }),
  );
  return { matches, failures };
}

/** A history and the state drawn from it; `RouterProvider` draws it. */
export class AppRouter {
  state: RouterState;
  /** Settles once the first location is ready. */
  readonly ready: Promise<void>;
  private pending: Promise<void>;
  private latest = 0;
  private readonly listeners = new Set<(state: RouterState) => void>();

  constructor(
    readonly routes: RouteObject[],
    readonly history: History,
    private readonly origin: string,
  ) {
    this.state = {
      initialized: false,
      location: history.location,
      navigating: true,
      matches: [],
      failures: new Map(),
    };
    history.listen(({ location }) => {
      this.pending = this.show(location);
    });
    this.ready = this.pending = this.show(history.location);
  }

  /** Calls `listener` at each new state; returns the unsubscription. */
  subscribe(listener: (state: RouterState) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Goes to `to`; settles once it is drawn (or a later navigation took its place). */
  navigate(to: To, options: { replace?: boolean } = {}): Promise<void> {
    if (options.replace) this.history.replace(to);
    else this.history.push(to);
    return this.pending;
  }

  private set(state: RouterState) {
    this.state = state;
    for (const listener of [...this.listeners]) listener(state);
  }

  private async show(location: Location): Promise<void> {
    const id = ++this.latest;
    if (this.state.initialized && !this.state.navigating) {
      this.set({ ...this.state, navigating: true });
    }
    const prepared = await prepare(this.routes, location, this.origin);
    // A later navigation has started: it draws its own location.
    if (id !== this.latest) return;
    this.set({ initialized: true, location, navigating: false, ...prepared });
  }
}

/** The router of the browser's address bar. */
export function createBrowserAppRouter(routes: RouteObject[]): AppRouter {
  return new AppRouter(routes, createBrowserHistory({ v5Compat: true }), window.location.origin);
}

/** A router in memory at `initialEntries` (the last one current): for the tests. */
export function createMemoryAppRouter(routes: RouteObject[], initialEntries = ['/']): AppRouter {
  return new AppRouter(
    routes,
    createMemoryHistory({ initialEntries, v5Compat: true }),
    'http://localhost',
  );
}

const RouterStateContext = createContext<RouterState | null>(null);
const RouteErrorContext = createContext<unknown>(undefined);

/** Whether a navigation is on its way (the next location's code or data loading). */
export function useNavigating(): boolean {
  return useContext(RouterStateContext)?.navigating ?? false;
}

/** The `handle` of every route the location on screen matches, outermost first. */
export function useRouteHandles<T>(): (T | undefined)[] {
  const matches = useContext(RouterStateContext)?.matches ?? [];
  return matches.map((match) => match.route.handle as T | undefined);
}

/** The error an `ErrorBoundary` of the route table shows. */
export function useRouteError(): unknown {
  return useContext(RouteErrorContext);
}

interface BoundaryProps {
  Screen: ComponentType;
  resetKey: string;
  children: ReactNode;
}
interface BoundaryState {
  failed: boolean;
  error: unknown;
  resetKey: string;
}

/** A route's `ErrorBoundary`: what its subtree threw, until the next location. */
class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = {
    failed: false,
    error: undefined,
    resetKey: this.props.resetKey,
  };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(
    props: BoundaryProps,
    state: BoundaryState,
  ): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey
      ? null
      : { failed: false, error: undefined, resetKey: props.resetKey };
  }

  override render(): ReactNode {
    const { Screen, children } = this.props;
    if (!this.state.failed) return children;
    return (
      <RouteErrorContext value={this.state.error}>
        <Screen />
      </RouteErrorContext>
    );
  }
}

function RouteBoundary({ Screen, children }: { Screen: ComponentType; children: ReactNode }) {
  const { key } = useLocation();
  return (
    <Boundary Screen={Screen} resetKey={key}>
      {children}
    </Boundary>
  );
}

/** A route's element: its own, its component, or its loaded module's; its failure thrown. */
function RouteElement({ route }: { route: RouteObject }) {
  const failures = useContext(RouterStateContext)?.failures;
  if (failures?.has(route)) throw failures.get(route);
  if (route.element !== undefined) return route.element;
  const Screen = route.Component ?? modules.get(route)?.Component;
  if (Screen) return <Screen />;
  if (typeof route.lazy === 'function')
    throw new Error('A route was drawn before its module loaded.');
  return <Outlet />;
}

/** The table as `useRoutes` takes it: each route's element drawn by `RouteElement`. */
function toElements(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const element = <RouteElement route={route} />;
    const { ErrorBoundary } = route;
    const common = {
      path: route.path,
      caseSensitive: route.caseSensitive,
      element: ErrorBoundary ? (
        <RouteBoundary Screen={ErrorBoundary}>{element}</RouteBoundary>
      ) : (
        element
      ),
    };
    return route.index
      ? { ...common, index: true }
      : { ...common, children: route.children && toElements(route.children) };
  });
}

function Routes({ routes }: { routes: RouteObject[] }) {
  const elements = useMemo(() => toElements(routes), [routes]);
  return useRoutes(elements);
}

/**
 * The routes of `state` (ready: see `prepare`), for a `<Router>` or `<StaticRouter>` at its
 * location around it (the server's render draws one this way).
 */
export function RouteTree({ routes, state }: { routes: RouteObject[]; state: RouterState }) {
  return (
    <RouterStateContext value={state}>
      <Routes routes={routes} />
    </RouterStateContext>
  );
}

/**
 * Draws `router`: the root route's `HydrateFallback` until its first location is ready, then
 * each location once it is, in a transition (rendered in slices, decision 0037).
 */
export function RouterProvider({ router }: { router: AppRouter }) {
  const [state, setState] = useState(router.state);
  useEffect(() => {
    const draw = (next: RouterState) => startTransition(() => setState(next));
    const stop = router.subscribe(draw);
    // A state set between this component's render and now (the same state changes nothing).
    draw(router.state);
    return stop;
  }, [router]);
  if (!state.initialized) {
    const Fallback = router.routes[0]?.HydrateFallback;
    return Fallback ? <Fallback /> : null;
  }
  return (
    <Router location={state.location} navigator={router.history as Navigator}>
      <RouteTree routes={router.routes} state={state} />
    </Router>
  );
}
