import { describe, expect, it } from 'vitest';
import { buildUser } from '@/test/fixtures';
import { AUTH_STORAGE_KEY, useAuthStore } from './auth-store';

describe('the auth store', () => {
  it('persists the user only, never the authenticated flag', () => {
    const user = buildUser('admin');
    useAuthStore.getState().signIn(user);
    const stored = JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? '{}');
    expect(stored.state).toEqual({ user });
    expect(stored.state).not.toHaveProperty('isAuthenticated');
  });

  it('rebuilds the authenticated flag from the persisted user on reload', async () => {
    const user = buildUser('super_hr');
    localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ state: { user }, version: 0 }));
    await useAuthStore.persist.rehydrate();
    expect(useAuthStore.getState().user).toEqual(user);
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
  });

  it('ignores a persisted user that is not a valid user', async () => {
    localStorage.setItem(
      AUTH_STORAGE_KEY,
      JSON.stringify({ state: { user: { user_id: 1, type: 'hacker' } }, version: 0 }),
    );
    await useAuthStore.persist.rehydrate();
    expect(useAuthStore.getState().user).toBeNull();
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
  });

  it('forgets the user on sign-out', () => {
    useAuthStore.getState().signIn(buildUser('admin'));
    useAuthStore.getState().signOut();
    expect(useAuthStore.getState()).toMatchObject({ user: null, isAuthenticated: false });
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? '{}').state).toEqual({
      user: null,
    });
  });
});
