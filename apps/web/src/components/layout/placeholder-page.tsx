import { Construction } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card, CardContent } from '@/components/ui/card';
import { PageHeader } from './page-header';

/** A screen that is routed and guarded but not built yet: its title inside the layout. */
export function PlaceholderPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(titleKey)} />
      <Card>
        <CardContent className="flex items-center gap-3 text-sm text-muted-foreground">
          <Construction className="size-5 shrink-0" aria-hidden />
          <p>{t('placeholder.not_built')}</p>
        </CardContent>
      </Card>
    </>
  );
}
