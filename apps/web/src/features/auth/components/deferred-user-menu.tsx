import { deferMenu } from '@/components/layout/deferred-menu';
import { UserMenuButton } from './user-menu-button';

/** The header's user menu, fetched once the page is on screen (see deferMenu). */
export const DeferredUserMenu = deferMenu(
  () => import('./user-menu').then(({ UserMenu }) => UserMenu),
  UserMenuButton,
);
