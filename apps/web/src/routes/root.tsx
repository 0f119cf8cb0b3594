import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { NavigationProgress } from '@/components/layout/navigation-progress';
import { afterNextPaint } from '@/hooks/use-after-first-paint';
import { loadClassMerge } from '@/lib/class-merge-ready';
import { resetChunkLoadCounter } from '@/lib/chunk-load';

/**
 * tailwind-merge, after the first paint (decisions 0049, 0058): the screens drawn before it
 * (sign-in, loading, error pages, the signed-in shell with the dashboard) pass no overriding
 * classes, but what opens on them later (menus, dialogs, toasts) may.
 */
const loadClassMergeAfterPaint = () =>
  afterNextPaint(() => {
    loadClassMerge().catch(() => {
      // Asked again by the next screen that needs it (withClassMerge).
    });
  });

/**
 * The root route. It renders only when no route in the page failed (the root holds the only
 * error element), so this is where a successful load resets the chunk-load counter.
 */
export function RootRoute() {
  useEffect(() => {
    resetChunkLoadCounter();
  }, []);
  useEffect(loadClassMergeAfterPaint, []);
  return (
    <>
      <NavigationProgress />
      <Outlet />
    </>
  );
}
