import { useTranslation } from 'react-i18next';
import { ReadOnlyField } from './read-only-field';
import { TextField } from './text-field';

/**
 * The code of a company, merchant or terminal: typed when creating (`hint` says the rule), fixed
 * once created (`fixedValue`, shown read-only).
 */
export function CodeField({
  label,
  hint,
  fixedValue,
  autoFocus,
}: {
  label: string;
  hint: string;
  fixedValue?: string;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  if (fixedValue !== undefined) {
    return <ReadOnlyField label={label} value={fixedValue} description={t('forms.code_fixed')} />;
  }
  return <TextField name="code" label={label} description={hint} autoFocus={autoFocus} />;
}
