import { ChevronRight } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import {
  SidebarGroup,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarMenuSub,
  SidebarMenuSubButton,
  SidebarMenuSubItem,
  useSidebar,
} from '@/components/ui/sidebar';
import {
  isNavGroup,
  type NavBadges,
  type NavGroupItem,
  type NavItem,
  type NavLinkItem,
} from '@/config/nav';
import { useNavOverlays } from './nav-overlays';

const pathOf = (url: string): string => url.split('?')[0] ?? url;

/** Active when the current path is the entry's path or below it. */
export const isActivePath = (pathname: string, url: string): boolean => {
  const path = pathOf(url);
  return pathname === path || pathname.startsWith(`${path}/`);
};

function NavLinkEntry({
  item,
  pathname,
  count,
}: {
  item: NavLinkItem;
  pathname: string;
  count?: number | undefined;
}) {
  const { t } = useTranslation();
  const { isMobile, state, setOpenMobile } = useSidebar();
  const overlays = useNavOverlays();
  const title = t(item.titleKey);
  const Icon = item.icon;
  const active = isActivePath(pathname, item.url);
  const button = (
    <SidebarMenuButton asChild isActive={active}>
      <Link
        to={item.url}
        aria-current={active ? 'page' : undefined}
        onClick={() => setOpenMobile(false)}
      >
        {Icon && <Icon aria-hidden />}
        <span>{title}</span>
        {count !== undefined && count > 0 && (
          <span
            data-testid={`nav-badge-${item.badge ?? ''}`}
            className="ml-auto min-w-5 rounded-full bg-primary px-1.5 text-center text-xs leading-5 font-medium text-primary-foreground tabular-nums group-data-[collapsible=icon]:hidden"
          >
            <span aria-hidden>{count > 99 ? '99+' : count}</span>
            <span className="sr-only">{t('nav.pending_count', { count })}</span>
          </span>
        )}
      </Link>
    </SidebarMenuButton>
  );
  return (
    <SidebarMenuItem>
      {overlays ? (
        // The title beside the icon while the sidebar is collapsed.
        <overlays.Tooltip label={title} hidden={state !== 'collapsed' || isMobile}>
          {button}
        </overlays.Tooltip>
      ) : (
        button
      )}
    </SidebarMenuItem>
  );
}

function NavGroupEntry({ item, pathname }: { item: NavGroupItem; pathname: string }) {
  const { t } = useTranslation();
  const { state, isMobile, setOpenMobile } = useSidebar();
  const overlays = useNavOverlays();
  const title = t(item.titleKey);
  const Icon = item.icon;
  const active = item.items.some((child) => isActivePath(pathname, child.url));

  // Collapsed to icons: the sub-entries open in a menu beside the icon.
  if (state === 'collapsed' && !isMobile) {
    const trigger = (
      <SidebarMenuButton isActive={active} aria-label={title}>
        <Icon aria-hidden />
        <span>{title}</span>
      </SidebarMenuButton>
    );
    const entries = item.items.map((child) => ({
      href: child.url,
      label: t(child.titleKey),
      current: isActivePath(pathname, child.url),
    }));
    return (
      <SidebarMenuItem>
        {overlays ? <overlays.Menu trigger={trigger} label={title} entries={entries} /> : trigger}
      </SidebarMenuItem>
    );
  }

  return (
    <Collapsible asChild defaultOpen className="group/collapsible">
      <SidebarMenuItem>
        <CollapsibleTrigger asChild>
          <SidebarMenuButton isActive={active && state === 'collapsed'}>
            <Icon aria-hidden />
            <span>{title}</span>
            <ChevronRight
              aria-hidden
              className="ml-auto transition-transform duration-200 group-data-[state=open]/collapsible:rotate-90"
            />
          </SidebarMenuButton>
        </CollapsibleTrigger>
        <CollapsibleContent>
          <SidebarMenuSub>
            {item.items.map((child) => {
              const childActive = isActivePath(pathname, child.url);
              return (
                <SidebarMenuSubItem key={child.url}>
                  <SidebarMenuSubButton asChild isActive={childActive}>
                    <Link
                      to={child.url}
                      aria-current={childActive ? 'page' : undefined}
                      onClick={() => setOpenMobile(false)}
                    >
                      <span>{t(child.titleKey)}</span>
                    </Link>
                  </SidebarMenuSubButton>
                </SidebarMenuSubItem>
              );
            })}
          </SidebarMenuSub>
        </CollapsibleContent>
      </SidebarMenuItem>
    </Collapsible>
  );
}

/** The sidebar entries, rendered from nav data already filtered for the role. */
export function NavMain({ items, badges }: { items: NavItem[]; badges?: NavBadges | undefined }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <nav aria-label={t('nav.label')}>
      <SidebarGroup>
        <SidebarMenu>
          {items.map((item) =>
            isNavGroup(item) ? (
              <NavGroupEntry key={item.url} item={item} pathname={pathname} />
            ) : (
              <NavLinkEntry
                key={item.url}
                item={item}
                pathname={pathname}
                count={item.badge ? badges?.[item.badge] : undefined}
              />
            ),
          )}
        </SidebarMenu>
      </SidebarGroup>
    </nav>
  );
}
