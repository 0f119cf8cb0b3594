import { z } from 'zod';
import type { FieldValues, Path, UseFormGetValues, UseFormSetError } from 'react-hook-form';
import { isErrorCode } from '@app/contract';
import { i18n } from '@/locales/i18n';
import { isApiError } from './api-error';
import { translateMessage } from './messages';

/**
 * A number typed into a text box: the form holds the string, the schema checks the number. An
 * empty box reaches `schema` as `undefined`, so its 'required' message applies.
 */
export const numberField = <T extends z.ZodType<number | undefined>>(schema: T) =>
  z
    .string()
    .trim()
    .transform((value) => (value === '' ? undefined : Number(value)))
    // An empty box must reach the schema as undefined to get its 'required' message.
    .pipe(schema as unknown as z.ZodType<z.output<T>, number | undefined>);

/** Like numberField, but an empty box means `null` (a value that may be cleared). */
export const nullableNumberField = <T extends z.ZodType<number>>(schema: T) =>
  z
    .string()
    .trim()
    .transform((value) => (value === '' ? null : Number(value)))
    .pipe(schema.nullable() as unknown as z.ZodType<z.output<T> | null, number | null>);

/** A number as a form shows it: '' for none. */
export const numberText = (value: number | null | undefined): string =>
  value === null || value === undefined ? '' : String(value);

/**
 * Puts a failed mutation's message on the form fields it concerns, besides the toast of the
 * display rule: `metadata` fields by name, and known codes on the field they name
 * (`codeFields`, e.g. `{ USERNAME_EXISTS: 'username' }`). Returns whether any field got one.
 */
export function applyServerErrors<T extends FieldValues>(
  form: { setError: UseFormSetError<T>; getValues: UseFormGetValues<T> },
  error: unknown,
  codeFields: Partial<Record<string, Path<T>>> = {},
): boolean {
  if (!isApiError(error)) return false;
  const known = new Set(Object.keys(form.getValues()));
  let applied = false;
  for (const [field, message] of Object.entries(error.metadata ?? {})) {
    if (!known.has(field)) continue;
    form.setError(field as Path<T>, { type: 'server', message: translateMessage(String(message)) });
    applied = true;
  }
  const field = error.code ? codeFields[error.code] : undefined;
  if (field && error.code && isErrorCode(error.code)) {
    form.setError(field, { type: 'server', message: i18n.t(error.code, { ns: 'errors' }) });
    applied = true;
  }
  return applied;
}
