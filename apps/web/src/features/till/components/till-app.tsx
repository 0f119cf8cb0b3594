import { Component, lazy, Suspense, useState, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlertStore } from '@/lib/alert-store';
import { TillPage } from '../pages/till-page';
import { TillFrame } from './till-frame';

// Fetched when needed, not with the till's first load (first-load.test.ts): the alert dialog
// with the first alert (session expired, server error), the error screen with a failed render.
const AlertHost = lazy(() =>
  import('@/components/feedback/alert-host').then(({ AlertHost }) => ({ default: AlertHost })),
);
const ErrorScreen = lazy(() =>
  import('@/components/errors/error-screen').then(({ ErrorScreen }) => ({
    default: ErrorScreen,
  })),
);

/** The alerts asked for through `showAlert`, from the first one on. */
function Alerts() {
  const asked = useAlertStore((state) => state.queue.length > 0);
  const [wanted, setWanted] = useState(asked);
  if (asked && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <AlertHost />
    </Suspense>
  ) : null;
}

/** A spinner drawn in CSS while the catalogues load (it may show before they have). */
function TillLoading() {
  const { t, ready } = useTranslation('common', { useSuspense: false });
  return (
    <div className="flex min-h-svh items-center justify-center" role="status" aria-live="polite">
      <span
        aria-hidden="true"
        className="size-8 animate-spin rounded-full border-4 border-muted border-t-muted-foreground"
      />
      <span className="sr-only">{ready ? t('app.loading') : 'Loading…'}</span>
    </div>
  );
}

/** The app's Oops! screen (components/errors) for a render that failed. */
class TillErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error === undefined) return this.props.children;
    return (
      <Suspense fallback={null}>
        <ErrorScreen error={this.state.error} onReload={() => window.location.reload()} />
      </Suspense>
    );
  }
}

/**
 * The till's page whole (its entry, src/till-main.tsx, renders it): the catalogues awaited, an
 * error screen for a render that failed, the till in its frame, the alerts.
 */
export function TillApp() {
  return (
    <Suspense fallback={<TillLoading />}>
      <TillErrorBoundary>
        <TillFrame>
          <TillPage />
        </TillFrame>
        <Alerts />
      </TillErrorBoundary>
    </Suspense>
  );
}
