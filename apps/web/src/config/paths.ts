import type { Status } from '@app/contract';

const fixed = <P extends string>(path: P) => ({ path, getHref: (): P => path });

/** A path with list filters in its search (empty values left out). */
const withSearch = (path: string, search: Record<string, string | number | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `${path}?${query}` : path;
};

/** Every route of spec 2, with how to link to it. Nothing else spells a path. */
export const paths = {
  home: fixed('/'),
  login: {
    path: '/login',
    /** `from` is where to go back to after signing in (path + search). */
    getHref: (from?: string) =>
      from ? `/login?${new URLSearchParams({ from }).toString()}` : '/login',
  },
  errors: {
    forbidden: fixed('/error/403'),
    notFound: fixed('/error/404'),
    accessDenied: fixed('/error/access-denied'),
  },
  dashboard: fixed('/dashboard'),
  /** Two-factor sign-in (user menu); the only screen of a user who must enrol first. */
  twoFactor: fixed('/two-factor'),
  employees: {
    path: '/employees',
    getHref: (search: { status?: Status } = {}) =>
      search.status ? `/employees?${new URLSearchParams({ status: search.status })}` : '/employees',
  },
  terminals: {
    path: '/terminals',
    getHref: (search: { merchant_id?: number } = {}) => withSearch('/terminals', search),
  },
  merchants: fixed('/merchants'),
  companies: fixed('/companies'),
  orderHistory: {
    path: '/order-history',
    getHref: (search: { company_id?: number; merchant_id?: number } = {}) =>
      withSearch('/order-history', search),
  },
  summaryReport: fixed('/summary-report'),
  summaryReportCompany: {
    path: '/summary-report/:companyId',
    getHref: (companyId: string | number, search: { month?: string } = {}) =>
      withSearch(`/summary-report/${encodeURIComponent(String(companyId))}`, search),
  },
  tokenTransaction: fixed('/token-transaction'),
  employeeTransaction: fixed('/employee-transaction'),
  companyTransaction: fixed('/company-transaction'),
  resetPeriodDate: fixed('/reset-period-date'),
  users: {
    path: '/user',
    /** User Management, e.g. filtered to one merchant's staff. */
    getHref: (search: { merchant_id?: number } = {}) => withSearch('/user', search),
  },
} as const;

/** Where `/` leads (spec 2: the default home route). */
export const DEFAULT_HOME = paths.dashboard.getHref();

/**
 * The `from` of /login, accepted only as a same-origin relative path: it must start with `/`
 * and not `//` or `/\` (which browsers read as another host).
 */
export function safeRedirect(from: string | null | undefined): string {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) {
    return DEFAULT_HOME;
  }
  if (from === paths.login.path || from.startsWith(`${paths.login.path}?`)) return DEFAULT_HOME;
  return from;
}
