import type { ReactNode } from 'react';
import {
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';

/** A labelled text box of the surrounding form, with its hint and its error. */
export function TextField({
  name,
  label,
  description,
  autoFocus,
  autoComplete = 'off',
}: {
  name: string;
  label: string;
  description?: ReactNode;
  autoFocus?: boolean;
  autoComplete?: string;
}) {
  return (
    <FormField
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input autoComplete={autoComplete} autoFocus={autoFocus} {...field} />
          </FormControl>
          {description && <FormDescription>{description}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
