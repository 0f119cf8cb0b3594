/**
 * When the toaster is needed (decision 0037): its code (sonner) and its render stay out of the
 * page's start, where they would hold up a phone's main thread. The app mounts it at the first
 * press of a pointer or key (every toast of a user's action comes after one) or when a toast is
 * asked for without one (a failed query's error toast, `showErrorToast`).
 */
const listeners = new Set<() => void>();
let wanted = false;

export function wantToaster(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of [...listeners]) listener();
}

/** Calls `listener` once the toaster is wanted (at once if it already is); returns the unsubscribe. */
export function onToasterWanted(listener: () => void): () => void {
  if (wanted) {
    listener();
    return () => undefined;
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}
