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
  /** The public page a one-time set-password link opens (decision 0025; token in the fragment). */
  setPassword: fixed('/set-password'),
  errors: {
    forbidden: fixed('/error/403'),
    notFound: fixed('/error/404'),
    accessDenied: fixed('/error/access-denied'),
  },
  dashboard: fixed('/dashboard'),
  /** The till (DESIGN 8): the merchant roles' point of sale. */
  till: fixed('/till'),
  /** Two-factor sign-in (user menu); the only screen of a user who must enrol first. */
  twoFactor: fixed('/two-factor'),
  employees: {
    path: '/employees',
    getHref: (search: { status?: Status } = {}) =>
      search.status ? `/employees?${new URLSearchParams({ status: search.status })}` : '/employees',
  },
  /** An employee's page: its wallet, its ledger, its actions. */
  employeeDetail: {
    path: '/employees/:employeeId',
    getHref: (id: number | string) => `/employees/${encodeURIComponent(String(id))}`,
  },
  terminals: {
    path: '/terminals',
    getHref: (search: { merchant_id?: number } = {}) => withSearch('/terminals', search),
  },
  merchants: fixed('/merchants'),
  /** A merchant's page: its terminals, its orders, its actions. */
  merchantDetail: {
    path: '/merchants/:merchantId',
    getHref: (id: number | string) => `/merchants/${encodeURIComponent(String(id))}`,
  },
  companies: fixed('/companies'),
  /** A company's page: its wallet, its ledger, its actions. */
  companyDetail: {
    path: '/companies/:companyId',
    getHref: (id: number | string) => `/companies/${encodeURIComponent(String(id))}`,
  },
  /** Spending rules (DESIGN 7): a company admin's own company's; admin and Group HR choose one. */
  spendingRules: fixed('/spending-rules'),
  orderHistory: {
    path: '/order-history',
    /** `view: 'declined'`: the orders the spending rules or the balance refused (DESIGN 7). */
    getHref: (search: { company_id?: number; merchant_id?: number; view?: 'declined' } = {}) =>
      withSearch('/order-history', search),
  },
  /** Audit Log (decision 0036): each role's scope of the audit log. */
  auditLog: fixed('/audit-log'),
  /** Approvals (decision 0039): four-eyes requests, pending and decided. */
  approvals: {
    path: '/approvals',
    getHref: (search: { tab?: 'pending' | 'decided' } = {}) => withSearch('/approvals', search),
  },
  /** Webhooks (decision 0038): the endpoints of the caller's scope and their deliveries. */
  webhooks: fixed('/webhooks'),
  /** Provisioning (decision 0087): the company's SCIM base URL, tokens and last requests. */
  provisioning: fixed('/provisioning'),
  /** Identity providers (decision 0086): the OIDC providers back-office users sign in with. */
  identityProviders: fixed('/identity-providers'),
  /** Settlements (decision 0040): merchants' half-month statements, and one statement. */
  settlements: {
    path: '/settlements',
    getHref: (search: { merchant_id?: number | string } = {}) => withSearch('/settlements', search),
  },
  /** A merchant's crumb of a statement's address: its statements in the list. */
  settlementMerchant: {
    path: '/settlements/:merchantId',
    getHref: (merchantId: number | string) =>
      `/settlements/${encodeURIComponent(String(merchantId))}`,
  },
  settlementStatement: {
    path: '/settlements/:merchantId/:periodStart',
    getHref: (merchantId: number | string, periodStart: string) =>
      `/settlements/${encodeURIComponent(String(merchantId))}/${encodeURIComponent(periodStart)}`,
  },
  summaryReport: fixed('/summary-report'),
  summaryReportCompany: {
    path: '/summary-report/:companyId',
    getHref: (companyId: string | number, search: { month?: string } = {}) =>
      withSearch(`/summary-report/${encodeURIComponent(String(companyId))}`, search),
  },
  tokenTransaction: fixed('/token-transaction'),
  employeeTransaction: {
    path: '/employee-transaction',
    /** `employee_id`: one employee's wallet, with its declined orders (DESIGN 7). */
    getHref: (search: { employee_id?: number } = {}) => withSearch('/employee-transaction', search),
  },
  companyTransaction: fixed('/company-transaction'),
  resetPeriodDate: fixed('/reset-period-date'),
  /** Holidays (DESIGN 7): the public holidays of a year, `?year=` (this year when absent). */
  holidays: {
    path: '/holidays',
    getHref: (search: { year?: number } = {}) => withSearch('/holidays', search),
  },
  users: {
    path: '/user',
    /** User Management, e.g. filtered to one merchant's staff. */
    getHref: (search: { merchant_id?: number } = {}) => withSearch('/user', search),
  },
} as const;

/** Where `/` leads (spec 2: the default home route). */
export const DEFAULT_HOME = paths.dashboard.getHref();

/** Control characters and backslashes, raw or percent-encoded: browsers drop or reread them. */
const isUnsafeInPath = (text: string): boolean =>
  /%(?:[01][0-9a-f]|7f|5c)/i.test(text) ||
  [...text].some((c) => c < ' ' || c === '\u007f' || c === '\\');
const SAME_ORIGIN = 'https://same-origin.invalid';

/**
 * The `from` of /login, accepted only as a same-origin absolute path (issue 14): it starts with
 * one `/`, holds no control character or backslash (raw or percent-encoded: `/%09/example.org`
 * is `//example.org` once a browser drops the tab), does not start with `//` even once decoded,
 * and resolves to this origin. Anything else, and /login itself, leads to the dashboard.
 */
export function safeRedirect(from: string | null | undefined): string {
  if (!from || !from.startsWith('/') || from.startsWith('//') || isUnsafeInPath(from)) {
    return DEFAULT_HOME;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(from);
  } catch {
    return DEFAULT_HOME; // a broken escape
  }
  if (decoded.startsWith('//') || isUnsafeInPath(decoded)) return DEFAULT_HOME;
  const url = new URL(from, SAME_ORIGIN);
  if (url.origin !== SAME_ORIGIN || url.pathname === paths.login.path) return DEFAULT_HOME;
  return from;
}
