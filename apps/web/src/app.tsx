import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { LoadingScreen } from '@/components/layout/loading-screen';
import { useAlertStore } from '@/lib/alert-store';
import { RouterProvider, type AppRouter } from '@/lib/router';
import { onToasterWanted, wantToaster } from '@/lib/toaster-demand';

// Fetched when first needed, not with the first load (issue 6) nor right after it (decision
// 0037): the toast library and the alert dialog. A toast or an alert asked for before they arrive
// shows when they do.
const Toaster = lazy(() =>
  import('@/components/feedback/toaster').then(({ Toaster }) => ({ default: Toaster })),
);
const AlertHost = lazy(() =>
  import('@/components/feedback/alert-host').then(({ AlertHost }) => ({ default: AlertHost })),
);

/** The toaster from the first press of a pointer or key, or the first toast asked for. */
function useToasterWanted(): boolean {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const events = ['pointerdown', 'keydown'] as const;
    for (const event of events) window.addEventListener(event, wantToaster, true);
    const stop = onToasterWanted(() => setWanted(true));
    return () => {
      stop();
      for (const event of events) window.removeEventListener(event, wantToaster, true);
    };
  }, []);
  return wanted;
}

/** The alert host from the first alert asked for on. */
function useAlertHostWanted(): boolean {
  const asked = useAlertStore((state) => state.queue.length > 0);
  const [wanted, setWanted] = useState(asked);
  if (asked && !wanted) setWanted(true);
  return wanted;
}

/**
 * What surrounds the router: the outer Suspense waits for the translation catalogues; the toaster
 * and the alert host come when wanted. The server draws the dashboard inside the same frame
 * (prerender.tsx), so that the browser hydrates it: the same Suspense boundaries on both sides.
 */
export function AppFrame({ children }: { children: ReactNode }) {
  const toasterWanted = useToasterWanted();
  const alertHostWanted = useAlertHostWanted();
  return (
    <Suspense fallback={<LoadingScreen />}>
      <ErrorBoundary>
        {children}
        <Suspense fallback={null}>
          {alertHostWanted && <AlertHost />}
          {toasterWanted && <Toaster />}
        </Suspense>
      </ErrorBoundary>
    </Suspense>
  );
}

/** Calls `onCommit` once its children are on screen: inside a Suspense boundary, once it is. */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(() => {
    onCommit();
  }, [onCommit]);
  return children;
}

/**
 * The app: its router in the frame. `onShown` is called once the router's page is on screen: for
 * a hydration, once the frame's boundary around it is hydrated, which is after the root's first
 * commit (the boundaries hydrate in turns): a press on the header before then could be lost.
 */
export function App({ router, onShown }: { router: AppRouter; onShown?: () => void }) {
  // TanStack Query's provider is the set-password page's and, around each signed-in screen but
  // the dashboard, `signedIn`'s (routes/index.tsx): the sign-in page and the dashboard load no
  // query library before their first paint (decisions 0044, 0060).
  const page = <RouterProvider router={router} />;
  return <AppFrame>{onShown ? <Committed onCommit={onShown}>{page}</Committed> : page}</AppFrame>;
}
