import { lazy, Suspense } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { LoadingScreen } from '@/components/layout/loading-screen';
import { queryClient } from '@/lib/query-client';

type AppRouter = ReturnType<typeof createBrowserRouter>;

// Fetched once the page is up, not with the first load (issue 6): the toast library and the
// alert dialog. A toast or an alert asked for before they arrive shows when they do.
const Toaster = lazy(() =>
  import('@/components/feedback/toaster').then(({ Toaster }) => ({ default: Toaster })),
);
const AlertHost = lazy(() =>
  import('@/components/feedback/alert-host').then(({ AlertHost }) => ({ default: AlertHost })),
);

/** The providers around the router. The outer Suspense waits for the translation catalogues. */
export function App({ router }: { router: AppRouter }) {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
          <Suspense fallback={null}>
            <AlertHost />
            <Toaster />
          </Suspense>
        </QueryClientProvider>
      </ErrorBoundary>
    </Suspense>
  );
}
