import { useTranslation } from 'react-i18next';
import { STATUSES, type Status } from '@app/contract';
import { FormControl } from '@/components/ui/form';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';

/** Active / Inactive, inside a FormItem (the FormControl labels the trigger). */
export function StatusSelect({
  value,
  onChange,
  disabled,
}: {
  value: Status | undefined;
  onChange: (value: Status) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Select value={value} onValueChange={(next) => onChange(next as Status)} disabled={disabled}>
      <FormControl>
        <SelectTrigger className="w-full">
          <SelectValue placeholder={t('forms.select_placeholder')} />
        </SelectTrigger>
      </FormControl>
      <SelectContent>
        {STATUSES.map((status) => (
          <SelectItem key={status} value={status}>
            {t(`statuses.${status}`)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
