import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useMatch, useNavigate } from 'react-router';
import { useShallow } from 'zustand/react/shallow';
import type { SelfUser } from '@app/contract';
import { can } from '@app/contract/permissions';
import { AppShell } from '@/components/layout/app-shell';
import { holdDeferredMenus, releaseDeferredMenus } from '@/components/layout/deferred-menu';
import { usePendingApprovalCount } from '@/features/approvals/api/get-approvals';
import { LoadingScreen } from '@/components/layout/loading-screen';
import { paths } from '@/config/paths';
import { afterNextPaint } from '@/hooks/use-after-first-paint';
import { useSelfInfo } from '@/features/auth/api/get-self-info';
import { DeferredUserMenu } from '@/features/auth/components/deferred-user-menu';
import { useCompanyDetails } from '@/features/companies/api/get-company';
import { useStatementCrumbs } from '@/features/settlements/api/get-settlement-statement';
import { useAuthStore } from '@/lib/auth-store';
import { warmClassMergeSoon, withClassMerge } from '@/lib/class-merge-ready';
import { loadWithQueryClient } from '@/lib/with-query-client';
import { useQueriesFetching } from '@/lib/query-client-registry';
import { useRouteHandles } from '@/lib/router';
import type { RouteHandle } from '../route-handle';

// Only a user who must enrol in two-factor sign-in sees it: not in every signed-in page's first load.
// Its classes override each other: drawn once tailwind-merge is there (decision 0058).
const EnrolmentRequiredScreen = lazy(
  withClassMerge(
    loadWithQueryClient(
      () =>
        import('@/features/auth/pages/enrolment-required-screen').then((module) => ({
          default: module.EnrolmentRequiredScreen,
        })),
      'default',
    ),
  ),
);

/**
 * Releases the header's menus once no query is fetching and that has been painted (see
 * holdDeferredMenus). A component of its own, so that the fetching count re-renders it alone,
 * not the whole shell at every request.
 */
function ReleaseMenusWhenIdle() {
  const fetching = useQueriesFetching();
  useEffect(() => (fetching > 0 ? undefined : afterNextPaint(releaseDeferredMenus)), [fetching]);
  return null;
}

/**
 * Header and sidebar around the signed-in screens; composes the auth, companies and approvals
 * features (the sidebar's pending-approval count).
 */
function Shell({ user }: { user: SelfUser }) {
  // The header's menus wait until the first page's figures are painted.
  holdDeferredMenus();
  // tailwind-merge, fetched by the root route after the first paint, warmed for the shell's next
  // renders (decision 0058; the dashboard's loader did it before its first render).
  useEffect(() => afterNextPaint(warmClassMergeSoon), []);
  const companyId = useMatch(paths.summaryReportCompany.path)?.params.companyId;
  const { data: company } = useCompanyDetails(companyId, { silentError: true });
  const statement = useMatch(paths.settlementStatement.path)?.params;
  const statementCrumbs = useStatementCrumbs(statement?.merchantId, statement?.periodStart);
  const pendingApprovals = usePendingApprovalCount(can(user.type, 'approvals.view'));
  const breadcrumbLabels = companyId
    ? { [paths.summaryReportCompany.getHref(companyId)]: company?.name ?? companyId }
    : statementCrumbs;
  return (
    <AppShell
      role={user.type}
      userMenu={<DeferredUserMenu user={user} />}
      breadcrumbLabels={breadcrumbLabels}
      navBadges={{ approvals: pendingApprovals.data }}
    >
      <Outlet />
      <ReleaseMenusWhenIdle />
    </AppShell>
  );
}

/**
 * The guards of spec 6, in order:
 * - no session → /login?from=<path+search> (plain /login after a deliberate logout);
 * - session loading and no user id known → the loading screen;
 * - a role that must enrol in two-factor sign-in and has not → /two-factor, alone, no shell;
 * - a route whose `handle.permission` the role lacks → /error/403.
 */
function Guards() {
  const location = useLocation();
  const navigate = useNavigate();
  const handles = useRouteHandles<RouteHandle>();
  const { isAuthenticated, user, rememberLocation } = useAuthStore(
    useShallow((state) => ({
      isAuthenticated: state.isAuthenticated,
      user: state.user,
      rememberLocation: state.rememberLocation,
    })),
  );
  const selfInfo = useSelfInfo();

  if (!isAuthenticated) {
    const from = rememberLocation ? location.pathname + location.search : undefined;
    return <Navigate to={paths.login.getHref(from)} replace />;
  }
  if (user?.user_id == null) {
    if (selfInfo.isError) throw selfInfo.error;
    return <LoadingScreen />;
  }
  if (user.mfa_enrolment_required) {
    // The server refuses every other call until enrolment (MFA_ENROLMENT_REQUIRED).
    if (location.pathname !== paths.twoFactor.path) {
      return <Navigate to={paths.twoFactor.getHref()} replace />;
    }
    return (
      <Suspense fallback={<LoadingScreen />}>
        <EnrolmentRequiredScreen
          user={user}
          onEnrolled={() => void navigate(paths.dashboard.getHref(), { replace: true })}
        />
      </Suspense>
    );
  }
  const denied = handles.some((handle) => {
    const permission = handle?.permission;
    return permission !== undefined && !can(user.type, permission);
  });
  if (denied) return <Navigate to={paths.errors.forbidden.getHref()} replace />;

  return <Shell user={user} />;
}

/**
 * The signed-in screens. TanStack Query is not in this layout's first load (decision 0060): the
 * shell's and the dashboard's queries are late (lib/late-query.tsx), and the other screens come
 * inside its provider (`signedIn` in routes/index.tsx).
 */
export function Component() {
  return <Guards />;
}
