import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from './sheet';

/**
 * The sidebar below 768px: a sheet from the left. Loaded by `Sidebar` only on small screens, so
 * the dialog code stays out of the first load elsewhere (issue 6); it starts closed, so nothing
 * waits for it.
 */
export function SidebarSheet({
  id,
  width,
  open,
  onOpenChange,
  children,
}: {
  id: string;
  width: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        id={id}
        data-slot="sidebar"
        data-mobile="true"
        side="left"
        className="w-(--sidebar-width) bg-sidebar p-0 text-sidebar-foreground [&>button]:hidden"
        style={{ '--sidebar-width': width } as React.CSSProperties}
      >
        <SheetHeader className="sr-only">
          <SheetTitle>{t('sidebar.title')}</SheetTitle>
          <SheetDescription>{t('sidebar.description')}</SheetDescription>
        </SheetHeader>
        <div className="flex h-full w-full flex-col">{children}</div>
      </SheetContent>
    </Sheet>
  );
}
