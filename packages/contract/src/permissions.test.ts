import { describe, expect, it } from 'vitest';
import {
  PERMISSIONS,
  ROLES,
  SCREEN_PERMISSIONS,
  can,
  screenPermissionGaps,
  userTypesManagedBy,
  type Permission,
} from './index';

describe('screen permissions', () => {
  it('lets every role that may open a screen call every API the screen uses', () => {
    expect(screenPermissionGaps()).toEqual([]);
  });

  it('finds a screen given to a role its API refuses', () => {
    const tampered = { ...PERMISSIONS, 'users.view': ['admin', 'merchant_staff'] };
    expect(screenPermissionGaps(tampered)).toEqual([
      'merchant_staff: users.view needs users.manage',
    ]);
  });

  it('names a real permission for every screen and every API it uses, and gives every role a screen', () => {
    for (const [screen, apis] of Object.entries(SCREEN_PERMISSIONS)) {
      expect(PERMISSIONS, screen).toHaveProperty([screen]);
      for (const api of apis) expect(PERMISSIONS, `${screen} → ${api}`).toHaveProperty([api]);
    }
    for (const role of ROLES) {
      expect(
        Object.keys(SCREEN_PERMISSIONS).some((screen) => can(role, screen as Permission)),
        role,
      ).toBe(true);
    }
  });
});

describe('user management', () => {
  it('is the admin’s and the merchant admin’s, each managing the types userTypesManagedBy names', () => {
    expect(PERMISSIONS['users.view']).toEqual(['admin', 'merchant_admin']);
    for (const role of ROLES) {
      expect(can(role, 'users.manage'), role).toBe(userTypesManagedBy(role).length > 0);
    }
    expect(userTypesManagedBy('merchant_admin')).toEqual(['merchant_supervisor', 'merchant_staff']);
    expect(userTypesManagedBy('admin')).toContain('merchant_admin');
    expect(userTypesManagedBy('merchant_supervisor')).toEqual([]);
  });
});
