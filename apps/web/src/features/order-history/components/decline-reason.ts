import type { TFunction } from 'i18next';
import type { OrderDecline } from '@app/contract';
import { formatDateTime, withThousands } from '@/lib/format';

/** A detail as the message shows it: amounts with thousands, instants in the language's format. */
function detailText(value: unknown, lang: string | undefined): string {
  if (typeof value === 'number') return withThousands(value);
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value))
    return formatDateTime(value, lang);
  return value === null || value === undefined ? '' : String(value);
}

/**
 * Why an order was declined, by the error display rule of spec 8: the code's message of the
 * catalogue (the `errors` namespace), its `{{placeholders}}` filled from the decline's `details`;
 * a code the catalogue does not hold shows as it is.
 */
export function declineReason(
  t: TFunction,
  decline: Pick<OrderDecline, 'code' | 'details'>,
  lang?: string,
): string {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(decline.details ?? {})) {
    values[key] = detailText(value, lang);
  }
  return t(decline.code, { ns: 'errors', defaultValue: decline.code, ...values });
}
