import type * as ClassMerge from './class-merge';

type ClassMergeModule = typeof ClassMerge;

/**
 * tailwind-merge, fetched once (decision 0058): the screens drawn before it arrives (sign-in,
 * loading and error pages, and since 0058 the signed-in shell with the dashboard) pass no class
 * that overrides another (prerender.test.tsx), so they look the same joined or merged. Every
 * other screen waits for it before it renders (`withClassMerge`).
 */
let ready: Promise<ClassMergeModule> | undefined;

export function loadClassMerge(): Promise<ClassMergeModule> {
  ready ??= import('./class-merge').then(
    (module) => {
      module.installClassMerge();
      return module;
    },
    (error: unknown) => {
      // A failed fetch is forgotten, so the next screen asks again.
      ready = undefined;
      throw error;
    },
  );
  return ready;
}

/**
 * Builds its class maps, which it does on its first call (~20 ms of main thread on a phone,
 * decision 0048), in a task of its own rather than in the next render of the signed-in shell.
 * Not on the sign-in page, whose blocking time after the first paint counts (decision 0049).
 */
export function warmClassMergeSoon(): void {
  loadClassMerge().then(
    (module) => setTimeout(module.warmClassMerge, 0),
    () => {
      // Asked again by the next screen that needs it (withClassMerge).
    },
  );
}

/** A route's or a lazy screen's module, resolved once tailwind-merge is installed too. */
export function withClassMerge<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadClassMerge()]).then(([module]) => module);
}
