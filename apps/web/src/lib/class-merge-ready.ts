/**
 * tailwind-merge, fetched once (decision 0058): the screens drawn before it arrives (sign-in,
 * loading and error pages, and since 0058 the signed-in shell with the dashboard) pass no class
 * that overrides another (prerender.test.tsx), so they look the same joined or merged. Every
 * other screen waits for it before it renders (`withClassMerge`).
 */
let ready: Promise<void> | undefined;

export function loadClassMerge(): Promise<void> {
  ready ??= import('./class-merge').then(
    (module) => {
      module.installClassMerge();
      // Its class maps are built on its first call (~20 ms on a phone, decision 0048): in a task
      // of its own, not in the next screen's render.
      setTimeout(module.warmClassMerge, 0);
    },
    (error: unknown) => {
      // A failed fetch is forgotten, so the next screen asks again.
      ready = undefined;
      throw error;
    },
  );
  return ready;
}

/** A route's or a lazy screen's module, resolved once tailwind-merge is installed too. */
export function withClassMerge<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadClassMerge()]).then(([module]) => module);
}
