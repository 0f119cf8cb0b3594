import { deferMenu } from '@/components/layout/deferred-menu';
import { withQueryClient } from '@/lib/with-query-client';
import { loadQueryRuntime } from '@/lib/load-query-runtime';
import { UserMenuButton } from './user-menu-button';

/** The header's user menu, fetched once the page is on screen (see deferMenu). */
export const DeferredUserMenu = deferMenu(
  // In TanStack Query's provider (its sign-out is a mutation; decision 0060).
  () =>
    Promise.all([import('./user-menu'), loadQueryRuntime()]).then(([{ UserMenu }, runtime]) =>
      withQueryClient(UserMenu, runtime),
    ),
  UserMenuButton,
);
