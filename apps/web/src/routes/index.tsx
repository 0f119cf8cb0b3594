import { Navigate, type RouteObject } from 'react-router';
import type { ScreenPermission } from '@app/contract';
import { LoadingScreen } from '@/components/layout/loading-screen';
import { RouteError } from '@/components/errors/route-error';
import { DEFAULT_HOME, paths } from '@/config/paths';
import { withClassMerge } from '@/lib/class-merge-ready';
import { loadWithQueryClient } from '@/lib/with-query-client';
import { RootRoute } from './root';
import type { RouteHandle } from './route-handle';

const guarded = (permission: ScreenPermission): { handle: RouteHandle } => ({
  handle: { permission },
});

/**
 * The signed-in screens, each drawn once tailwind-merge is there, but the dashboard: the API draws
 * it and the app hydrates it before tailwind-merge arrives (decision 0058), which the dashboard and
 * the shell allow by passing no class that overrides another (prerender.test.tsx). Likewise inside
 * TanStack Query's provider, which the dashboard's first load does not have (decision 0060).
 */
const signedIn = (children: RouteObject[]): RouteObject[] =>
  children.map((route) =>
    typeof route.lazy === 'function' && route.path !== paths.dashboard.path
      ? { ...route, lazy: withClassMerge(loadWithQueryClient(route.lazy, 'Component')) }
      : route,
  );

/**
 * Every route of spec 2. Each screen is its own chunk (`lazy`); the protected layout checks the
 * session and each route's permission. Only the root has an error element, so a route that
 * rendered proves the whole page loaded (see routes/root.tsx).
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootRoute,
    ErrorBoundary: RouteError,
    HydrateFallback: LoadingScreen,
    children: [
      { path: paths.login.path, lazy: () => import('./login') },
      { path: paths.setPassword.path, lazy: () => import('./set-password') },
      { path: paths.errors.forbidden.path, lazy: () => import('./errors/forbidden') },
      { path: paths.errors.notFound.path, lazy: () => import('./errors/not-found') },
      { path: paths.errors.accessDenied.path, lazy: () => import('./errors/access-denied') },
      {
        lazy: () => import('./app/layout'),
        children: signedIn([
          { index: true, element: <Navigate to={DEFAULT_HOME} replace /> },
          {
            path: paths.dashboard.path,
            ...guarded('dashboard.view'),
            // Its own chunk, as the query library it starts (decision 0044); it runs beside `lazy`.
            loader: (args) => import('./app/dashboard-loader').then((m) => m.dashboardLoader(args)),
            lazy: () => import('./app/dashboard'),
          },
          { path: paths.till.path, ...guarded('till.view'), lazy: () => import('./app/till') },
          {
            path: paths.employees.path,
            ...guarded('employees.view'),
            lazy: () => import('./app/employees'),
          },
          {
            path: paths.employeeDetail.path,
            ...guarded('employees.view'),
            lazy: () => import('./app/employee-detail'),
          },
          {
            path: paths.terminals.path,
            ...guarded('terminals.view'),
            lazy: () => import('./app/terminals'),
          },
          {
            path: paths.merchants.path,
            ...guarded('merchants.view'),
            lazy: () => import('./app/merchants'),
          },
          {
            path: paths.merchantDetail.path,
            ...guarded('merchants.view'),
            lazy: () => import('./app/merchant-detail'),
          },
          {
            path: paths.companies.path,
            ...guarded('companies.view'),
            lazy: () => import('./app/companies'),
          },
          {
            path: paths.companyDetail.path,
            ...guarded('companies.view'),
            lazy: () => import('./app/company-detail'),
          },
          {
            path: paths.spendingRules.path,
            ...guarded('spending_rules.view'),
            lazy: () => import('./app/spending-rules'),
          },
          {
            path: paths.orderHistory.path,
            ...guarded('order_history.view'),
            lazy: () => import('./app/order-history'),
          },
          {
            path: paths.summaryReport.path,
            ...guarded('summary_report.view'),
            lazy: () => import('./app/summary-report'),
          },
          {
            path: paths.summaryReportCompany.path,
            ...guarded('summary_report.company.view'),
            lazy: () => import('./app/summary-report-company'),
          },
          {
            path: paths.tokenTransaction.path,
            ...guarded('token_transaction.view'),
            // Its first entry the role may open (issue 43), decided in a route chunk, not the entry.
            lazy: () =>
              import('./app/employee-transaction').then((m) => ({
                Component: m.TokenTransactionIndex,
              })),
          },
          {
            path: paths.companyTransaction.path,
            ...guarded('company_transaction.view'),
            lazy: () => import('./app/company-transaction'),
          },
          {
            path: paths.employeeTransaction.path,
            ...guarded('token_transaction.view'),
            lazy: () => import('./app/employee-transaction'),
          },
          {
            path: paths.resetPeriodDate.path,
            ...guarded('reset_period.view'),
            lazy: () => import('./app/reset-period-date'),
          },
          {
            path: paths.holidays.path,
            ...guarded('holidays.view'),
            lazy: () => import('./app/holidays'),
          },
          {
            path: paths.identityProviders.path,
            ...guarded('identity_providers.view'),
            lazy: () => import('./app/identity-providers'),
          },
          { path: paths.users.path, ...guarded('users.view'), lazy: () => import('./app/users') },
          {
            path: paths.auditLog.path,
            ...guarded('audit_log.view'),
            lazy: () => import('./app/audit-log'),
          },
          {
            path: paths.approvals.path,
            ...guarded('approvals.view'),
            lazy: () => import('./app/approvals'),
          },
          {
            path: paths.webhooks.path,
            ...guarded('webhooks.view'),
            lazy: () => import('./app/webhooks'),
          },
          {
            path: paths.provisioning.path,
            ...guarded('provisioning.view'),
            lazy: () => import('./app/provisioning'),
          },
          {
            path: paths.settlements.path,
            ...guarded('settlements.view'),
            lazy: () => import('./app/settlements'),
          },
          {
            path: paths.settlementMerchant.path,
            ...guarded('settlements.view'),
            lazy: () => import('./app/settlement-merchant'),
          },
          {
            path: paths.settlementStatement.path,
            ...guarded('settlements.view'),
            lazy: () => import('./app/settlement-statement'),
          },
          { path: paths.twoFactor.path, lazy: () => import('./app/two-factor') },
        ]),
      },
      // Drawn in place: the address typed stays in the bar and on the page (issue 41 item 8).
      { path: '*', lazy: () => import('./errors/not-found') },
    ],
  },
];
