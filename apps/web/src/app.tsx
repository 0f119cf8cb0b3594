import { Suspense } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { AlertHost } from '@/components/feedback/alert-host';
import { Toaster } from '@/components/feedback/toaster';
import { LoadingScreen } from '@/components/layout/loading-screen';
import { TooltipProvider } from '@/components/ui/tooltip';
import { queryClient } from '@/lib/query-client';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** The providers around the router. The outer Suspense waits for the translation catalogues. */
export function App({ router }: { router: AppRouter }) {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <TooltipProvider>
            <RouterProvider router={router} />
            <AlertHost />
            <Toaster />
          </TooltipProvider>
        </QueryClientProvider>
      </ErrorBoundary>
    </Suspense>
  );
}
