import type { ScreenPermission } from '@app/contract';

/**
 * Declared beside each route: the screen permission needed to open it (contract
 * SCREEN_PERMISSIONS, which ties each screen to the API permissions it uses).
 */
export interface RouteHandle {
  permission?: ScreenPermission;
}
