import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { SelfUser } from '@app/contract';
import { ROLES, STATUSES } from '@app/contract/constants';

export const AUTH_STORAGE_KEY = 'auth-user';

const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const orNull =
  <T>(check: (value: unknown) => value is T) =>
  (value: unknown): value is T | null =>
    value === null || check(value);
const isOneOf =
  <T extends string>(values: readonly T[]) =>
  (value: unknown): value is T =>
    (values as readonly unknown[]).includes(value);

/**
 * The stored user when it is a valid SelfUser (extra fields dropped), else null: the rules of
 * the contract's selfUserSchema, checked without zod, which the first load does not carry
 * (issue 6). A test holds the two to the same answers.
 */
const optionalBoolean = (value: unknown): boolean =>
  value === undefined || typeof value === 'boolean';

export function parseStoredUser(value: unknown): SelfUser | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const valid =
    isInteger(v.user_id) &&
    isOneOf(ROLES)(v.type) &&
    isString(v.username) &&
    orNull(isString)(v.email) &&
    orNull(isString)(v.employee_id) &&
    orNull(isInteger)(v.company_id) &&
    orNull(isInteger)(v.merchant_id) &&
    isOneOf(STATUSES)(v.status) &&
    optionalBoolean(v.mfa_enabled) &&
    optionalBoolean(v.mfa_enrolment_required);
  if (!valid) return null;
  return {
    ...(typeof v.mfa_enabled === 'boolean' ? { mfa_enabled: v.mfa_enabled } : {}),
    ...(typeof v.mfa_enrolment_required === 'boolean'
      ? { mfa_enrolment_required: v.mfa_enrolment_required }
      : {}),
    user_id: v.user_id,
    type: v.type,
    username: v.username,
    email: v.email,
    employee_id: v.employee_id,
    company_id: v.company_id,
    merchant_id: v.merchant_id,
    status: v.status,
  } as SelfUser;
}

interface AuthState {
  user: SelfUser | null;
  /** Rebuilt from `user` on reload, never persisted (spec 4). */
  isAuthenticated: boolean;
  /**
   * Whether the way back to /login carries the current location as `from`: yes after an expired
   * session, no after the user logged out.
   */
  rememberLocation: boolean;
  /** After a successful sign-in; `user` may follow from self-info. */
  signIn: (user: SelfUser | null) => void;
  setUser: (user: SelfUser) => void;
  /** Clears the local session only; the server call lives in features/auth. */
  signOut: (options?: { rememberLocation?: boolean }) => void;
}

/** The name a user goes by on screen: the username, else the email. */
export const displayNameOf = (user: SelfUser): string => user.username || user.email || '';

const authStore = createStore<AuthState>()(
  persist(
    (set) => ({
      user: null,
      isAuthenticated: false,
      rememberLocation: true,
      signIn: (user) => set({ user, isAuthenticated: true, rememberLocation: true }),
      setUser: (user) => set({ user, isAuthenticated: true }),
      signOut: ({ rememberLocation = true } = {}) =>
        set({ user: null, isAuthenticated: false, rememberLocation }),
    }),
    {
      name: AUTH_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ user: state.user }),
      merge: (persisted, current) => {
        const user = parseStoredUser((persisted as { user?: unknown } | null)?.user);
        return { ...current, user, isAuthenticated: user !== null };
      },
    },
  ),
);

/**
 * The store's hook. Its server snapshot (what React reads when it renders on the server) is the
 * current state, not zustand's initial one (signed out): the API renders a signed-in user's
 * dashboard (decision 0050) with that user in the store.
 */
const hookApi = { ...authStore, getInitialState: authStore.getState };

export function useAuthStore(): AuthState;
export function useAuthStore<T>(selector: (state: AuthState) => T): T;
export function useAuthStore<T>(selector?: (state: AuthState) => T) {
  return useStore(hookApi, selector ?? ((state: AuthState) => state as unknown as T));
}
useAuthStore.getState = authStore.getState;
useAuthStore.setState = authStore.setState;
useAuthStore.subscribe = authStore.subscribe;
useAuthStore.getInitialState = authStore.getInitialState;
useAuthStore.persist = authStore.persist;
