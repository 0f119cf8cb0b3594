import {
  ArrowLeftRight,
  Building2,
  CalendarClock,
  CalendarHeart,
  ClipboardCheck,
  FileBarChart,
  FileClock,
  History,
  KeyRound,
  LayoutDashboard,
  MonitorSmartphone,
  ReceiptText,
  SlidersHorizontal,
  Store,
  UserCog,
  UserRoundCheck,
  Users,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import { can, type ScreenPermission } from '@app/contract/permissions';
import { paths } from './paths';

export interface NavLinkItem {
  /** Translation key of the label (namespace common). */
  titleKey: string;
  url: string;
  icon?: LucideIcon;
  /** Absent: visible to whoever sees the parent (spec 6: the transaction sub-entries). */
  permission?: ScreenPermission;
  /** A count shown beside the entry (the shell passes the counts: decision 0039). */
  badge?: NavBadge;
}

/** The sidebar's counts, by name: the requests waiting for approval. */
export type NavBadge = 'approvals';
export type NavBadges = Partial<Record<NavBadge, number>>;

export interface NavGroupItem {
  titleKey: string;
  /** The group's own route, used for the active state. */
  url: string;
  icon: LucideIcon;
  permission: ScreenPermission;
  items: NavLinkItem[];
}

export type NavItem = NavLinkItem | NavGroupItem;

export const isNavGroup = (item: NavItem): item is NavGroupItem => 'items' in item;

/** The sidebar of spec 2, in its order, each entry with its permission of spec 6. */
export const NAV_ITEMS: NavItem[] = [
  {
    titleKey: 'nav.dashboard',
    url: paths.dashboard.getHref(),
    icon: LayoutDashboard,
    permission: 'dashboard.view',
  },
  // DESIGN 8: the merchant roles' point of sale (the shop icon the merchant roles never see on
  // Merchants, and not one more icon in the first load).
  { titleKey: 'nav.till', url: paths.till.getHref(), icon: Store, permission: 'till.view' },
  {
    titleKey: 'nav.employees',
    url: paths.employees.getHref({ status: 'active' }),
    icon: Users,
    permission: 'employees.view',
  },
  {
    titleKey: 'nav.merchants',
    url: paths.merchants.getHref(),
    icon: Store,
    permission: 'merchants.view',
  },
  {
    titleKey: 'nav.companies',
    url: paths.companies.getHref(),
    icon: Building2,
    permission: 'companies.view',
  },
  {
    titleKey: 'nav.terminals',
    url: paths.terminals.getHref(),
    icon: MonitorSmartphone,
    permission: 'terminals.view',
  },
  { titleKey: 'nav.users', url: paths.users.getHref(), icon: UserCog, permission: 'users.view' },
  {
    titleKey: 'nav.token_transaction',
    url: paths.tokenTransaction.getHref(),
    icon: ArrowLeftRight,
    permission: 'token_transaction.view',
    items: [
      {
        titleKey: 'nav.company_transaction',
        url: paths.companyTransaction.getHref(),
        permission: 'company_transaction.view',
      },
      { titleKey: 'nav.employee_transaction', url: paths.employeeTransaction.getHref() },
    ],
  },
  {
    titleKey: 'nav.summary_report',
    url: paths.summaryReport.getHref(),
    icon: FileBarChart,
    permission: 'summary_report.view',
  },
  {
    titleKey: 'nav.reset_period_date',
    url: paths.resetPeriodDate.getHref(),
    icon: CalendarClock,
    permission: 'reset_period.view',
  },
  // DESIGN 7: the holiday calendar of the spending rules, beside the other system settings. An
  // icon no other code uses: the date field's CalendarDays, brought into the shell, reshuffled the
  // merged chunks and put 1.3 kB more into the first load (first-load.test.ts).
  {
    titleKey: 'nav.holidays',
    url: paths.holidays.getHref(),
    icon: CalendarHeart,
    permission: 'holidays.view',
  },
  // DESIGN 9, decision 0086: the OIDC identity providers, beside the other system settings.
  {
    titleKey: 'nav.identity_providers',
    url: paths.identityProviders.getHref(),
    icon: KeyRound,
    permission: 'identity_providers.view',
  },
  {
    titleKey: 'nav.order_history',
    url: paths.orderHistory.getHref(),
    icon: History,
    permission: 'order_history.view',
  },
  // Beyond the spec's sidebar (DESIGN 6, decisions 0039 and 0036).
  {
    titleKey: 'nav.approvals',
    url: paths.approvals.getHref(),
    icon: ClipboardCheck,
    permission: 'approvals.view',
    badge: 'approvals',
  },
  {
    titleKey: 'nav.audit_log',
    url: paths.auditLog.getHref(),
    icon: FileClock,
    permission: 'audit_log.view',
  },
  // DESIGN 7: a company's spending rules at the till.
  {
    titleKey: 'spending_rules.nav',
    url: paths.spendingRules.getHref(),
    icon: SlidersHorizontal,
    permission: 'spending_rules.view',
  },
  // DESIGN 6, decision 0040: merchants' half-month statements.
  {
    titleKey: 'nav.settlements',
    url: paths.settlements.getHref(),
    icon: ReceiptText,
    permission: 'settlements.view',
  },
  {
    titleKey: 'nav.webhooks',
    url: paths.webhooks.getHref(),
    icon: Webhook,
    permission: 'webhooks.view',
  },
  {
    titleKey: 'nav.provisioning',
    url: paths.provisioning.getHref(),
    icon: UserRoundCheck,
    permission: 'provisioning.view',
  },
];

const allowed = (role: string | null | undefined, permission: ScreenPermission | undefined) =>
  permission === undefined || can(role, permission);

/** The entries a role may see; a group keeps only its allowed sub-entries. */
export function navItemsFor(role: string | null | undefined, items = NAV_ITEMS): NavItem[] {
  const result: NavItem[] = [];
  for (const item of items) {
    if (!allowed(role, item.permission)) continue;
    if (isNavGroup(item)) {
      const children = item.items.filter((child) => allowed(role, child.permission));
      if (children.length > 0) result.push({ ...item, items: children });
    } else {
      result.push(item);
    }
  }
  return result;
}

/** Where the wordmark leads: the first entry the role may open (spec 2). */
export function firstNavUrl(role: string | null | undefined, items = NAV_ITEMS): string {
  const [first] = navItemsFor(role, items);
  if (!first) return paths.dashboard.getHref();
  return isNavGroup(first) ? (first.items[0]?.url ?? first.url) : first.url;
}
