import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { MERCHANT_CATEGORIES, type MerchantCategory } from '@app/contract';
import type { Option } from '@/components/data-table';
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';

/** A merchant category in words (DESIGN 7); one the app does not know shows as it came. */
export const merchantCategoryLabel = (t: TFunction, category: string): string =>
  t(`merchant_category.values.${category}`, { defaultValue: category });

/** The categories as filter options, in the contract's order. */
export const merchantCategoryOptions = (t: TFunction): Option[] =>
  MERCHANT_CATEGORIES.map((category) => ({
    value: category,
    label: merchantCategoryLabel(t, category),
  }));

/** The category select of the merchant form (what a company's spending rules may allow). */
export function MerchantCategoryField() {
  const { t } = useTranslation();
  return (
    <FormField
      name="category"
      render={({ field }) => (
        <FormItem>
          <FormLabel>{t('merchant_category.label')}</FormLabel>
          <Select
            value={field.value as MerchantCategory | undefined}
            onValueChange={(next) => field.onChange(next as MerchantCategory)}
          >
            <FormControl>
              <SelectTrigger className="w-full">
                <SelectValue placeholder={t('forms.select_placeholder')} />
              </SelectTrigger>
            </FormControl>
            <SelectContent>
              {MERCHANT_CATEGORIES.map((category) => (
                <SelectItem key={category} value={category}>
                  {merchantCategoryLabel(t, category)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
