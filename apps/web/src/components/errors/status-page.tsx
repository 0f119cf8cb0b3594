import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

export interface StatusPageProps {
  code?: string;
  title: string;
  message: string;
  /** More under the message (the 404 page's address). */
  children?: ReactNode;
}

/** The stand-alone pages of the error area (403, 404, access denied), with a way home. */
export function StatusPage({ code, title, message, children }: StatusPageProps) {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-3 p-6 text-center">
      {code && (
        <p className="text-6xl font-bold tracking-tight text-muted-foreground" aria-hidden>
          {code}
        </p>
      )}
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="max-w-md text-muted-foreground">{message}</p>
      {children}
      <Button asChild className="mt-2">
        <Link to={paths.home.getHref()}>{t('status.go_home')}</Link>
      </Button>
    </main>
  );
}
