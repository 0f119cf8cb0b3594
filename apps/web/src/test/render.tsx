import { render, screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import type { SelfUser } from '@app/contract';
import { App } from '@/app';
import { useAuthStore } from '@/lib/auth-store';
import { routes } from '@/routes';

/** Renders the whole app (providers, routes, guards) at `path`, optionally signed in. */
export function renderApp(path: string, options: { user?: SelfUser | null } = {}) {
  if (options.user) useAuthStore.setState({ user: options.user, isAuthenticated: true });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<App router={router} />);
  return { ...view, router };
}

/** The current location of a router rendered by renderApp, as path + search. */
export const locationOf = (router: ReturnType<typeof createMemoryRouter>): string =>
  router.state.location.pathname + router.state.location.search;

export { screen };
