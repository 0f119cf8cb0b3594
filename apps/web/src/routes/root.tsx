import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { NavigationProgress } from '@/components/layout/navigation-progress';
import { resetChunkLoadCounter } from '@/lib/chunk-load';

/**
 * The root route. It renders only when no route in the page failed (the root holds the only
 * error element), so this is where a successful load resets the chunk-load counter.
 */
export function RootRoute() {
  useEffect(() => {
    resetChunkLoadCounter();
  }, []);
  return (
    <>
      <NavigationProgress />
      <Outlet />
    </>
  );
}
