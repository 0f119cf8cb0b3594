import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { validationErrorMap } from '@app/contract';

/**
 * The resolver of every form: a contract (or form) schema checks the values, and every message is
 * a key of the `validation` namespace (a check without its own key gets one from the contract's
 * `validationErrorMap`, never zod's English; decision 0026). When the schema is an
 * object, it is handed only the fields it declares, so one form can serve create and edit (or an
 * invitation) whose strict schemas know different fields. `TValues` is what the form holds when
 * that is more than the schema's input.
 */
export function formResolver<S extends z.ZodType>(
  schema: S,
): Resolver<z.input<S> & FieldValues, unknown, z.output<S>>;
export function formResolver<TValues extends FieldValues, TOutput = TValues>(
  schema: z.ZodType,
): Resolver<TValues, unknown, TOutput>;
export function formResolver<TValues extends FieldValues, TOutput>(
  schema: z.ZodType,
): Resolver<TValues, unknown, TOutput> {
  const resolve = zodResolver(schema as never, {
    error: validationErrorMap,
  }) as unknown as Resolver<TValues, unknown, TOutput>;
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (!shape) return resolve;
  const fields = Object.keys(shape);
  return (values, context, options) =>
    resolve(
      Object.fromEntries(
        fields.filter((field) => field in values).map((field) => [field, values[field]]),
      ) as TValues,
      context,
      options,
    );
}
