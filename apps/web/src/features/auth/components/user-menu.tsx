import { LogOut, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SelfUser } from '@app/contract';
import { ROLE_BADGES } from '@app/contract/constants';
import type { DeferredMenuProps } from '@/components/layout/deferred-menu';
import { paths } from '@/config/paths';
import { displayNameOf } from '@/lib/auth-store';
import { LanguageRadioItems } from '@/components/layout/language-switch';
import { Badge } from '@/components/ui/badge';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useLogout } from '../api/logout';

/** Header menu of spec 2: employee_id, username or email, role badge, language, Log out. */
export function UserMenu({ user, trigger, defaultOpen }: { user: SelfUser } & DeferredMenuProps) {
  const { t } = useTranslation();
  const logout = useLogout();
  const displayName = displayNameOf(user);
  const hasBadge = ROLE_BADGES[user.type] !== undefined;

  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="font-normal">
          <div className="flex flex-col gap-1.5">
            <div className="flex items-center justify-between gap-2">
              <span className="truncate font-medium" data-testid="user-menu-name">
                {displayName}
              </span>
              {hasBadge && (
                <Badge variant="secondary" data-testid="user-menu-badge">
                  {t(`badges.${user.type}`, { ns: 'roles' })}
                </Badge>
              )}
            </div>
            {user.employee_id && (
              <span className="text-xs text-muted-foreground">
                {t('user_menu.employee_id', { id: user.employee_id })}
              </span>
            )}
          </div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">
          {t('language.label')}
        </DropdownMenuLabel>
        <LanguageRadioItems />
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to={paths.twoFactor.getHref()}>
            <ShieldCheck aria-hidden />
            {t('user_menu.two_factor')}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem
          disabled={logout.isPending}
          onSelect={() => logout.mutate()}
          variant="destructive"
        >
          <LogOut aria-hidden />
          {t('user_menu.logout')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
