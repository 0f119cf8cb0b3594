import { startTransition, useEffect, useState } from 'react';

/**
 * False until the component's first render has been painted, then true, set in a transition (so
 * what it reveals renders in slices, and commits in a task of its own). For the parts of a page
 * below its first screen: drawn with the rest, they made the first load's longest task longer
 * (the dashboard's chart and its hidden table of days, decision 0048).
 */
export function useAfterFirstPaint(): boolean {
  const [isPainted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The frame runs before the paint; a task queued from it runs after.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setPainted(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return isPainted;
}
