import { ChevronRight } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
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
import { isNavGroup, type NavGroupItem, type NavItem, type NavLinkItem } from '@/config/nav';

const pathOf = (url: string): string => url.split('?')[0] ?? url;

/** Active when the current path is the entry's path or below it. */
export const isActivePath = (pathname: string, url: string): boolean => {
  const path = pathOf(url);
  return pathname === path || pathname.startsWith(`${path}/`);
};

function NavLinkEntry({ item, pathname }: { item: NavLinkItem; pathname: string }) {
  const { t } = useTranslation();
  const { setOpenMobile } = useSidebar();
  const title = t(item.titleKey);
  const Icon = item.icon;
  const active = isActivePath(pathname, item.url);
  return (
    <SidebarMenuItem>
      <SidebarMenuButton asChild isActive={active} tooltip={title}>
        <Link
          to={item.url}
          aria-current={active ? 'page' : undefined}
          onClick={() => setOpenMobile(false)}
        >
          {Icon && <Icon aria-hidden />}
          <span>{title}</span>
        </Link>
      </SidebarMenuButton>
    </SidebarMenuItem>
  );
}

function NavGroupEntry({ item, pathname }: { item: NavGroupItem; pathname: string }) {
  const { t } = useTranslation();
  const { state, isMobile, setOpenMobile } = useSidebar();
  const title = t(item.titleKey);
  const Icon = item.icon;
  const active = item.items.some((child) => isActivePath(pathname, child.url));

  // Collapsed to icons: the sub-entries open in a menu beside the icon.
  if (state === 'collapsed' && !isMobile) {
    return (
      <SidebarMenuItem>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <SidebarMenuButton isActive={active} aria-label={title}>
              <Icon aria-hidden />
              <span>{title}</span>
            </SidebarMenuButton>
          </DropdownMenuTrigger>
          <DropdownMenuContent side="right" align="start" sideOffset={4}>
            <DropdownMenuLabel>{title}</DropdownMenuLabel>
            <DropdownMenuSeparator />
            {item.items.map((child) => (
              <DropdownMenuItem key={child.url} asChild>
                <Link
                  to={child.url}
                  aria-current={isActivePath(pathname, child.url) ? 'page' : undefined}
                >
                  {t(child.titleKey)}
                </Link>
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
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
export function NavMain({ items }: { items: NavItem[] }) {
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
              <NavLinkEntry key={item.url} item={item} pathname={pathname} />
            ),
          )}
        </SidebarMenu>
      </SidebarGroup>
    </nav>
  );
}
