import { useRouteError } from '@/lib/router';
import { browser } from '@/lib/browser';
import { ErrorScreen } from './error-screen';

/** The router's error element: the same Oops! screen for route and lazy-chunk failures. */
export function RouteError() {
  const error = useRouteError();
  return <ErrorScreen error={error} onReload={() => browser.reload()} />;
}
