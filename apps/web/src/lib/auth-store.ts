import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { selfUserSchema, type SelfUser } from '@app/contract';

export const AUTH_STORAGE_KEY = 'auth-user';

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

export const useAuthStore = create<AuthState>()(
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
        const parsed = selfUserSchema.safeParse((persisted as { user?: unknown } | null)?.user);
        const user = parsed.success ? parsed.data : null;
        return { ...current, user, isAuthenticated: user !== null };
      },
    },
  ),
);
