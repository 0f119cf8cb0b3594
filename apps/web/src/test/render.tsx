import { render, screen } from '@testing-library/react';
import type { SelfUser } from '@app/contract';
import { App } from '@/app';
import { useAuthStore } from '@/lib/auth-store';
import { createMemoryAppRouter, type AppRouter } from '@/lib/router';
import { routes } from '@/routes';

/** Renders the whole app (providers, routes, guards) at `path`, optionally signed in. */
export function renderApp(path: string, options: { user?: SelfUser | null } = {}) {
  if (options.user) useAuthStore.setState({ user: options.user, isAuthenticated: true });
  const router = createMemoryAppRouter(routes, [path]);
  const view = render(<App router={router} />);
  return { ...view, router };
}

/** The location on screen of a router rendered by renderApp, as path + search. */
export const locationOf = (router: AppRouter): string =>
  router.state.location.pathname + router.state.location.search;

export { screen };
