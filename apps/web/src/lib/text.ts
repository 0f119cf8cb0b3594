/**
 * The text helpers of spec 9 that need no date library: the first load (the error display) uses
 * `capitalise`, so these stay out of format.ts's dayjs.
 */

/** `order_purchased` → `Order Purchased`; dashes count as separators too. */
export function snakeToWords(value: string): string {
  return value
    .split(/[_-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** 1234567.5 → `1,234,567.5`; keeps the sign and any decimals as given. */
export function withThousands(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const text = String(value);
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', fraction = ''] = match;
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction}`;
}

/**
 * Drops a leading six-digit prefix and one separator after it:
 * `202601000123` → `000123`, `123456-Acme` → `Acme`. Shorter digit runs are left alone.
 */
export function stripSixDigitPrefix(value: string): string {
  return value.replace(/^\d{6}[\s_-]?/, '');
}

/** Capitalises the first letter of a sentence, leaving the rest untouched. */
export function capitalise(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}
