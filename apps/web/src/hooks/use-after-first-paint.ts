import { startTransition, useEffect, useState } from 'react';
import { drawnPage } from '@/lib/drawn-page';

/**
 * Runs `callback` in a task queued after the next paint (the frame runs before the paint; a task
 * queued from it runs after). Returns what cancels it, for an effect's clean-up.
 */
export function afterNextPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/**
 * False until the component's first render has been painted, then true, set in a transition (so
 * what it reveals renders in slices, and commits in a task of its own). For the parts of a page
 * below its first screen: drawn with the rest, they made the first load's longest task longer
 * (the dashboard's chart and its hidden table of days, decision 0048).
 *
 * True from the start in the page the server draws and in its hydration (lib/drawn-page.ts):
 * that page is painted whole before any script runs.
 */
export function useAfterFirstPaint(): boolean {
  const [isPainted, setPainted] = useState(() => drawnPage() !== null);
  useEffect(() => {
    if (isPainted) return;
    return afterNextPaint(() => startTransition(() => setPainted(true)));
  }, [isPainted]);
  return isPainted;
}
