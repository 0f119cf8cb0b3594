import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role } from '@app/contract';
import { Separator } from '@/components/ui/separator';
import { SidebarInset, SidebarProvider, SidebarTrigger } from '@/components/ui/sidebar';
import { AppBreadcrumb } from './app-breadcrumb';
import type { NavBadges } from '@/config/nav';
import { AppSidebar } from './app-sidebar';

const MAIN_ID = 'main-content';

export interface AppShellProps {
  role: Role;
  /** Right side of the header (the user menu, composed by the route). */
  userMenu: ReactNode;
  /** Crumb labels by href, e.g. a company's name under summary-report. */
  breadcrumbLabels?: Record<string, string>;
  /** Counts beside sidebar entries (the pending approvals), composed by the route. */
  navBadges?: NavBadges;
  children: ReactNode;
}

/** Sidebar + header (breadcrumb, user menu) + page (spec 2, Layout). */
export function AppShell({ role, userMenu, breadcrumbLabels, navBadges, children }: AppShellProps) {
  const { t } = useTranslation();
  return (
    <SidebarProvider>
      <a
        href={`#${MAIN_ID}`}
        className="sr-only z-50 rounded-md bg-background px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:ring-[3px] focus:ring-ring/50"
      >
        {t('app.skip_to_content')}
      </a>
      <AppSidebar role={role} badges={navBadges} />
      <SidebarInset>
        <header className="sticky top-0 z-10 flex h-14 shrink-0 items-center gap-2 border-b bg-background px-3 md:px-4">
          <SidebarTrigger />
          {/* Its height from a box of its own, not a class over the separator's (decision 0058). */}
          <div className="mr-1 flex h-4">
            <Separator orientation="vertical" />
          </div>
          <div className="min-w-0 flex-1">
            <AppBreadcrumb labels={breadcrumbLabels} />
          </div>
          {userMenu}
        </header>
        <main id={MAIN_ID} tabIndex={-1} className="flex-1 p-4 outline-none md:p-6">
          {children}
        </main>
      </SidebarInset>
    </SidebarProvider>
  );
}
