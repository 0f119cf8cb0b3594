import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { NavigationProgress } from '@/components/layout/navigation-progress';
import { afterNextPaint } from '@/hooks/use-after-first-paint';
import { resetChunkLoadCounter } from '@/lib/chunk-load';

/**
 * tailwind-merge, after the first paint (decision 0049): the screens drawn before it (sign-in,
 * loading, error pages) pass no overriding classes, but what opens on them later (menus, dialogs,
 * toasts) may.
 */
const loadClassMerge = () =>
  afterNextPaint(() => {
    void import('@/lib/class-merge').then((module) => module.installClassMerge());
  });

/**
 * The root route. It renders only when no route in the page failed (the root holds the only
 * error element), so this is where a successful load resets the chunk-load counter.
 */
export function RootRoute() {
  useEffect(() => {
    resetChunkLoadCounter();
  }, []);
  useEffect(loadClassMerge, []);
  return (
    <>
      <NavigationProgress />
      <Outlet />
    </>
  );
}
