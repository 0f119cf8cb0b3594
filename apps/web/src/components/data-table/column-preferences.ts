import { useCallback, useSyncExternalStore } from 'react';
import { useAuthStore } from '@/lib/auth-store';

/** Where a user's hidden columns of one table are kept: per user, per table, in this browser. */
export const columnPreferencesKey = (userId: number | string, tableId: string) =>
  `columns:${userId}:${tableId}`;

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  window.addEventListener('storage', onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onChange);
  };
}

const EMPTY = '[]';
function read(key: string | null): string {
  if (!key) return EMPTY;
  try {
    return localStorage.getItem(key) ?? EMPTY;
  } catch {
    return EMPTY; // storage refused (private mode): every column shows
  }
}

function parse(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The columns a user has hidden in one table (issue 19: a column picker remembered per user),
 * kept in localStorage under the signed-in user's id, so another person on the same browser has
 * their own. Without a `tableId` (or signed out) nothing is remembered and every column shows.
 */
export function useHiddenColumns(tableId: string | undefined) {
  const userId = useAuthStore((state) => state.user?.user_id);
  const key = tableId && userId !== undefined ? columnPreferencesKey(userId, tableId) : null;
  const text = useSyncExternalStore(
    subscribe,
    () => read(key),
    () => EMPTY,
  );
  const setHidden = useCallback(
    (hidden: string[]) => {
      if (!key) return;
      try {
        localStorage.setItem(key, JSON.stringify([...new Set(hidden)].sort()));
      } catch {
        // Not remembered; the choice still applies until the page reloads.
      }
      notify();
    },
    [key],
  );
  return { hidden: parse(text), setHidden, isRemembered: key !== null };
}
