import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Outlet, useLocation, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import {
  createMemoryAppRouter,
  prepare,
  RouterProvider,
  useNavigating,
  useRouteError,
  useRouteHandles,
} from './router';

/** A promise and its resolution, to hold a module or a loader until the test lets it arrive. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

function Where() {
  const { pathname } = useLocation();
  const navigating = useNavigating();
  return (
    <p>
      at {pathname}
      {navigating ? ' (navigating)' : ''}
    </p>
  );
}

function Failure() {
  const error = useRouteError();
  return <p role="alert">failed: {error instanceof Error ? error.message : String(error)}</p>;
}

function Handles() {
  const handles = useRouteHandles<{ name: string }>();
  return <p>handles: {handles.map((handle) => handle?.name ?? '-').join(',')}</p>;
}

/** A root with a fallback and an error screen, around `children`. */
const table = (children: RouteObject[]): RouteObject[] => [
  {
    path: '/',
    handle: { name: 'root' },
    HydrateFallback: () => <p>first load</p>,
    ErrorBoundary: Failure,
    Component: () => (
      <>
        <Where />
        <Link to="/a">to a</Link>
        <Link to="/b">to b</Link>
        <Outlet />
      </>
    ),
    children,
  },
];

describe('the app router (decision 0062)', () => {
  it('draws a location only once its route modules and loaders are ready, the page before it staying until then', async () => {
    const moduleGate = gate();
    const loaderGate = gate();
    const loader = vi.fn(async ({ request }: { request: Request }) => {
      await loaderGate.opened;
      return new URL(request.url).searchParams.get('q');
    });
    const router = createMemoryAppRouter(
      table([
        { path: 'a', Component: () => <p>page a</p> },
        {
          path: 'b',
          loader,
          lazy: async () => {
            await moduleGate.opened;
            return { Component: () => <p>page b</p> };
          },
        },
      ]),
      ['/a'],
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('page a')).toBeInTheDocument();

    await act(() => void router.navigate('/b?q=1'));
    // The loader started beside the module, with the new location's address.
    expect(loader).toHaveBeenCalledTimes(1);
    expect(new URL(loader.mock.calls[0]![0].request.url).search).toBe('?q=1');
    expect(await screen.findByText('at /a (navigating)')).toBeInTheDocument();
    expect(screen.getByText('page a')).toBeInTheDocument();

    // The module alone is not enough: the loader is awaited too.
    await act(async () => moduleGate.open());
    expect(screen.getByText('page a')).toBeInTheDocument();
    expect(screen.queryByText('page b')).toBeNull();

    await act(async () => loaderGate.open());
    expect(await screen.findByText('page b')).toBeInTheDocument();
    expect(screen.getByText('at /b')).toBeInTheDocument();
    expect(screen.queryByText('page a')).toBeNull();
  });

  it('shows the fallback of the root until the first location is ready', async () => {
    const moduleGate = gate();
    const router = createMemoryAppRouter(
      table([
        {
          path: 'a',
          lazy: async () => {
            await moduleGate.opened;
            return { Component: () => <p>page a</p> };
          },
        },
      ]),
      ['/a'],
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByText('first load')).toBeInTheDocument();
    await act(async () => moduleGate.open());
    expect(await screen.findByText('page a')).toBeInTheDocument();
    await router.ready;
    expect(router.state.initialized).toBe(true);
  });

  it('never draws a location a later navigation overtook', async () => {
    const slow = gate();
    const drawn: string[] = [];
    const router = createMemoryAppRouter(
      table([
        {
          path: 'a',
          lazy: async () => {
            await slow.opened;
            return { Component: () => <p>page a</p> };
          },
        },
        { path: 'b', Component: () => <p>page b</p> },
        { path: 'c', Component: () => <p>page c</p> },
      ]),
      ['/c'],
    );
    router.subscribe((state) => drawn.push(state.location.pathname));
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('page c')).toBeInTheDocument();
    void router.navigate('/a');
    await act(() => router.navigate('/b'));
    expect(await screen.findByText('page b')).toBeInTheDocument();
    await act(async () => slow.open());
    // /a's module arrived after /b was drawn: /b stays.
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.getByText('page b')).toBeInTheDocument();
    expect(screen.queryByText('page a')).toBeNull();
    expect(router.state.location.pathname).toBe('/b');
    expect(drawn.filter((pathname, i) => pathname !== drawn[i - 1])).not.toContain('/a');
  });

  it("shows the root's error screen for a failed module or loader, until the next location", async () => {
    const router = createMemoryAppRouter(
      table([
        { path: 'a', Component: () => <p>page a</p> },
        { path: 'b', lazy: () => Promise.reject(new Error('no module')) },
        {
          path: 'c',
          loader: () => Promise.reject(new Error('no data')),
          Component: () => <p>page c</p>,
        },
      ]),
      ['/b'],
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('failed: no module');
    await act(() => router.navigate('/a'));
    expect(await screen.findByText('page a')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    await act(() => router.navigate('/c'));
    expect(await screen.findByRole('alert')).toHaveTextContent('failed: no data');
    expect(screen.queryByText('page c')).toBeNull();
  });

  it('catches what a route throws as it renders, and a link leads away from the error screen', async () => {
    const Thrower = () => {
      throw new Error('render failed');
    };
    const router = createMemoryAppRouter(
      table([
        { path: 'a', Component: Thrower },
        { path: 'b', Component: () => <p>page b</p> },
      ]),
      ['/a'],
    );
    // React reports the error it caught.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('failed: render failed');
    consoleError.mockRestore();
    await act(() => router.navigate('/b'));
    expect(await screen.findByText('page b')).toBeInTheDocument();
  });

  it('gives the handles of the routes the location matches, and follows links', async () => {
    const router = createMemoryAppRouter(
      table([
        { path: 'a', handle: { name: 'a' }, Component: Handles },
        { path: 'b', Component: Handles },
      ]),
      ['/a'],
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('handles: root,a')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'to b' }));
    expect(await screen.findByText('handles: root,-')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/b');
  });

  it('prepares a location outside a router, as the server render does', async () => {
    const lazy = vi.fn(async () => ({ Component: () => <p>page a</p> }));
    const routes = table([{ path: 'a', lazy }]);
    const { matches, failures } = await prepare(routes, '/a?x=1');
    expect(matches.map((match) => match.pathname)).toEqual(['/', '/a']);
    expect(failures.size).toBe(0);
    // A module is loaded once for every later location and router.
    await prepare(routes, '/a');
    const router = createMemoryAppRouter(routes, ['/a']);
    await router.ready;
    expect(lazy).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(router.state.initialized).toBe(true));
  });
});
