import { Coins } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Role } from '@app/contract';
import {
  Sidebar,
  SidebarContent,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  useSidebar,
} from '@/components/ui/sidebar';
import { firstNavUrl, navItemsFor, type NavBadges } from '@/config/nav';
import { NavMain } from './nav-main';
import { NavOverlaysContext, useLoadNavOverlays } from './nav-overlays';

/** The collapsible sidebar of spec 2: a short wordmark, then the entries the role may see. */
export function AppSidebar({ role, badges }: { role: Role; badges?: NavBadges | undefined }) {
  const { t } = useTranslation();
  const { setOpenMobile, state, isMobile } = useSidebar();
  // Wanted once collapsed (tooltips, group menus) or once the pointer comes over the sidebar,
  // which is ahead of a click on its collapse button (decision 0037).
  const [pointed, setPointed] = useState(false);
  const overlays = useLoadNavOverlays(pointed || (state === 'collapsed' && !isMobile));
  const nav = <NavMain items={navItemsFor(role)} badges={badges} />;
  return (
    <Sidebar onPointerEnter={pointed ? undefined : () => setPointed(true)}>
      <SidebarHeader>
        <SidebarMenu>
          <SidebarMenuItem>
            <SidebarMenuButton asChild size="lg">
              <Link
                to={firstNavUrl(role)}
                aria-label={t('sidebar.home_link', { name: t('app.name') })}
                onClick={() => setOpenMobile(false)}
              >
                <span
                  aria-hidden
                  className="flex aspect-square size-7 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground group-data-[collapsible=icon]:size-5"
                >
                  <Coins className="size-4" />
                </span>
                <span className="font-semibold tracking-tight">{t('app.short_name')}</span>
              </Link>
            </SidebarMenuButton>
          </SidebarMenuItem>
        </SidebarMenu>
      </SidebarHeader>
      <SidebarContent>
        {/* The entries render at once; their tooltips and menus join when fetched. */}
        <NavOverlaysContext.Provider value={overlays}>
          {overlays ? <overlays.Provider>{nav}</overlays.Provider> : nav}
        </NavOverlaysContext.Provider>
      </SidebarContent>
    </Sidebar>
  );
}
