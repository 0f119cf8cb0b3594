import { useTranslation } from 'react-i18next';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { changeLanguage, isLanguage, LANGUAGES } from '@/locales/i18n';
import type { DeferredMenuProps } from './deferred-menu';

/** The language choices, each named in its own language. */
export function LanguageRadioItems() {
  const { t, i18n } = useTranslation();
  return (
    <DropdownMenuRadioGroup
      value={i18n.resolvedLanguage ?? i18n.language}
      onValueChange={(value) => {
        if (isLanguage(value)) void changeLanguage(value);
      }}
    >
      {LANGUAGES.map((lng) => (
        <DropdownMenuRadioItem key={lng} value={lng} lang={lng}>
          {t(`language.${lng}`)}
        </DropdownMenuRadioItem>
      ))}
    </DropdownMenuRadioGroup>
  );
}

/** A stand-alone language menu (the login page; signed-in users have it in the user menu). */
export function LanguageSwitch({ trigger, defaultOpen }: DeferredMenuProps) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <LanguageRadioItems />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
