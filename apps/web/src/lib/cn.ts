import { clsx, type ClassValue } from 'clsx';

type ClassMerge = (classes: string) => string;
let merge: ClassMerge | undefined;

/**
 * Joins class names, letting later Tailwind classes override earlier ones.
 *
 * The overriding is tailwind-merge's, installed by lib/class-merge.ts: the signed-in layout and
 * the set-password page install it before they render, the root route after the first paint.
 * Until then classes are only joined (decision 0049): the screens drawn that early (sign-in,
 * loading, error pages) pass no class that overrides another, which prerender.test.tsx holds,
 * so they look the same, and the sign-in page's first load is 8 kB of gzip lighter.
 */
export function cn(...inputs: ClassValue[]): string {
  const classes = clsx(inputs);
  return merge ? merge(classes) : classes;
}

/** What `cn` merges with from now on; `undefined` only joins. */
export function setClassMerge(next: ClassMerge | undefined): void {
  merge = next;
}
