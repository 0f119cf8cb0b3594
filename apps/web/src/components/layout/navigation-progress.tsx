import { useTranslation } from 'react-i18next';
import { useQueriesFetching } from '@/lib/query-client-registry';
import { useNavigating } from '@/lib/router';

/**
 * A thin bar across the top while a screen is on its way (issue 19 item 5): the router loading
 * the next route's code, or the queries of the screen still fetching. Nothing when idle.
 */
export function NavigationProgress() {
  const { t } = useTranslation();
  const navigating = useNavigating();
  // Not TanStack Query's useIsFetching: the root route is on the sign-in page, which does not
  // load the query library (decision 0044).
  const fetching = useQueriesFetching();
  const isBusy = navigating || fetching > 0;
  if (!isBusy) return null;
  return (
    <div
      role="progressbar"
      aria-label={t('app.loading')}
      data-testid="navigation-progress"
      className="pointer-events-none fixed inset-x-0 top-0 z-[100] h-0.5 overflow-hidden bg-primary/20"
    >
      <div className="h-full w-1/3 animate-[navigation-progress_1.2s_ease-in-out_infinite] bg-primary" />
    </div>
  );
}
