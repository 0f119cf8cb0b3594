import type { Permission } from '@app/contract';

/** Declared beside each route: the permission (contract PERMISSIONS) needed to open it. */
export interface RouteHandle {
  permission?: Permission;
}
