import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import type { SelfUser } from '@app/contract';
import { Button } from '@/components/ui/button';
import { displayNameOf } from '@/lib/auth-store';

/** The button of the user menu: initials, and the name from the sm breakpoint up. */
export function UserMenuButton({
  user,
  ...props
}: { user: SelfUser } & React.ComponentProps<typeof Button>) {
  const { t } = useTranslation();
  const displayName = displayNameOf(user);
  return (
    <Button variant="ghost" size="menu" {...props}>
      <span
        aria-hidden
        className="flex size-7 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground uppercase"
      >
        {displayName.slice(0, 2)}
      </span>
      <span className="hidden max-w-40 truncate sm:inline">{displayName}</span>
      <span className="sr-only">{t('user_menu.open')}</span>
    </Button>
  );
}
