import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { selfUserSchema } from '@app/contract';
import { buildUser } from '@/test/fixtures';
import { AUTH_STORAGE_KEY, parseStoredUser, useAuthStore } from './auth-store';

const valid = buildUser('company_admin');
/** Stored values to hold parseStoredUser to what the contract's selfUserSchema answers. */
const STORED: unknown[] = [
  valid,
  { ...valid, extra: 'dropped' },
  { ...valid, email: null, employee_id: null, company_id: null, merchant_id: null },
  ...Object.keys(valid).map((key) => {
    const { [key as keyof typeof valid]: _, ...rest } = valid;
    return rest;
  }),
  ...(
    [
      ['user_id', '1'],
      ['user_id', 1.5],
      ['user_id', 2 ** 53],
      ['user_id', Number.NaN],
      ['user_id', null],
      ['type', 'hacker'],
      ['type', null],
      ['username', 42],
      ['username', null],
      ['email', 42],
      ['email', undefined],
      ['employee_id', 7],
      ['company_id', '1'],
      ['company_id', 1.5],
      ['merchant_id', Infinity],
      ['status', 'deleted'],
      ['status', null],
    ] as const
  ).map(([key, value]) => ({ ...valid, [key]: value })),
  null,
  undefined,
  'admin',
  42,
  [valid],
  {},
];

describe('the auth store', () => {
  // Decision 0050: the API draws a signed-in user's dashboard. zustand's own hook reads the
  // store's initial state there (signed out), and would draw the way to sign in.
  it('is read as it is when React renders on the server', () => {
    useAuthStore.getState().signIn(buildUser('admin', { username: 'ava.admin' }));
    function Name() {
      return createElement(
        'span',
        null,
        useAuthStore((state) => state.user?.username ?? 'nobody'),
      );
    }
    expect(renderToString(createElement(Name))).toBe('<span>ava.admin</span>');
    useAuthStore.getState().signOut();
    expect(renderToString(createElement(Name))).toBe('<span>nobody</span>');
  });

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

  it.each(STORED.map((value) => [JSON.stringify(value) ?? String(value), value]))(
    'reads a stored user as selfUserSchema does: %s',
    (_, value) => {
      const parsed = selfUserSchema.safeParse(value);
      expect(parseStoredUser(value)).toEqual(parsed.success ? parsed.data : null);
    },
  );

  it('forgets the user on sign-out', () => {
    useAuthStore.getState().signIn(buildUser('admin'));
    useAuthStore.getState().signOut();
    expect(useAuthStore.getState()).toMatchObject({ user: null, isAuthenticated: false });
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? '{}').state).toEqual({
      user: null,
    });
  });
});
