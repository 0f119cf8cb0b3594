import type * as React from 'react';
import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

/** The button of the stand-alone language menu. */
export function LanguageSwitchButton(props: React.ComponentProps<typeof Button>) {
  const { t } = useTranslation();
  return (
    <Button variant="ghost" size="icon" aria-label={t('language.choose')} {...props}>
      <Languages aria-hidden />
    </Button>
  );
}
