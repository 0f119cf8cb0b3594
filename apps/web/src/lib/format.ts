import dayjs from 'dayjs';

export const DATE_TIME_FORMAT = 'DD/MM/YYYY HH:mm';
export const DATE_FORMAT = 'DD/MM/YYYY';
/** The wire date format (spec 9 writes it yyyy-MM-dd; dayjs spells it YYYY-MM-DD). */
export const ISO_DATE_FORMAT = 'YYYY-MM-DD';

type DateInput = string | number | Date | null | undefined;

function format(value: DateInput, pattern: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value);
  return date.isValid() ? date.format(pattern) : '';
}

/** 31/01/2026 14:05 */
export const formatDateTime = (value: DateInput): string => format(value, DATE_TIME_FORMAT);
/** 31/01/2026 */
export const formatDate = (value: DateInput): string => format(value, DATE_FORMAT);
/** 2026-01-31 */
export const formatIsoDate = (value: DateInput): string => format(value, ISO_DATE_FORMAT);

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

const intlLocale = (lang: string | undefined) => (lang?.startsWith('zh') ? 'zh-CN' : 'en-GB');

/** `2025-01` in words: "January 2025", "2025年1月". */
export function formatMonthWords(month: string, lang: string | undefined): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  if (!year || !monthNumber) return month;
  return new Intl.DateTimeFormat(intlLocale(lang), {
    year: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, monthNumber - 1, 1)));
}

/** `2025-01-31` in words: "31 January 2025", "2025年1月31日". */
export function formatDayWords(day: string, lang: string | undefined): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  if (!year || !month || !date) return day;
  return new Intl.DateTimeFormat(intlLocale(lang), {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, month - 1, date)));
}
