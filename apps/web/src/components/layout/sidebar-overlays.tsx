import { Link } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from '@/components/ui/tooltip';
import type { NavMenuProps, NavOverlays, NavTooltipProps } from './nav-overlay-types';

function SidebarTooltip({ label, hidden, children }: NavTooltipProps) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent side="right" align="center" hidden={hidden}>
        {label}
      </TooltipContent>
    </Tooltip>
  );
}

function SidebarGroupMenu({ trigger, label, entries }: NavMenuProps) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent side="right" align="start" sideOffset={4}>
        <DropdownMenuLabel>{label}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {entries.map((entry) => (
          <DropdownMenuItem key={entry.href} asChild>
            <Link to={entry.href} aria-current={entry.current ? 'page' : undefined}>
              {entry.label}
            </Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Loaded by useLoadNavOverlays once the sidebar is on screen. */
export const sidebarOverlays: NavOverlays = {
  Provider: TooltipProvider,
  Tooltip: SidebarTooltip,
  Menu: SidebarGroupMenu,
};
