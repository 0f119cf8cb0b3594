/**
 * Every open modal registers how to close itself, so an expired session can close them all
 * (spec 4) without knowing which feature opened what.
 */
const closers = new Set<() => void>();

export function registerModal(close: () => void): () => void {
  closers.add(close);
  return () => {
    closers.delete(close);
  };
}

export function closeAllModals(): void {
  for (const close of [...closers]) close();
}
