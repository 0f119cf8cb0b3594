import { LogOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ROLE_BADGES, type SelfUser } from '@app/contract';
import { LanguageRadioItems } from '@/components/layout/language-switch';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
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
export function UserMenu({ user }: { user: SelfUser }) {
  const { t } = useTranslation();
  const logout = useLogout();
  const displayName = user.username || user.email || '';
  const hasBadge = ROLE_BADGES[user.type] !== undefined;

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="h-9 gap-2 px-2">
          <span
            aria-hidden
            className="flex size-7 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground uppercase"
          >
            {displayName.slice(0, 2)}
          </span>
          <span className="hidden max-w-40 truncate sm:inline">{displayName}</span>
          <span className="sr-only">{t('user_menu.open')}</span>
        </Button>
      </DropdownMenuTrigger>
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
