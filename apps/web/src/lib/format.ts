import dayjs from 'dayjs';
import { i18n } from '@/locales/i18n';

/**
 * One date system (issue 19): each language writes a day one way, in text and in every date
 * field alike. English keeps the spec's DD/MM/YYYY (British order, as spec 9 writes it); Chinese
 * writes year first, YYYY-MM-DD (GB/T 7408), never the US month-first order a native input shows.
 */
export const DATE_FORMATS = { en: 'DD/MM/YYYY', zh: 'YYYY-MM-DD' } as const;
export const DATE_TIME_FORMATS = { en: 'DD/MM/YYYY HH:mm', zh: 'YYYY-MM-DD HH:mm' } as const;
/** The wire date format (spec 9 writes it yyyy-MM-dd; dayjs spells it YYYY-MM-DD). */
export const ISO_DATE_FORMAT = 'YYYY-MM-DD';

export type DateLanguage = keyof typeof DATE_FORMATS;
/** The date conventions of a language tag: Chinese for zh*, English otherwise. */
export const dateLanguage = (lang: string | undefined = i18n.language): DateLanguage =>
  lang?.startsWith('zh') ? 'zh' : 'en';

/** The format of a day in `lang`, as a hint a person can read ("DD/MM/YYYY"). */
export const dateFormatOf = (lang?: string): string => DATE_FORMATS[dateLanguage(lang)];

type DateInput = string | number | Date | null | undefined;

function format(value: DateInput, pattern: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value);
  return date.isValid() ? date.format(pattern) : '';
}

/** 31/01/2026 14:05 (English), 2026-01-31 14:05 (Chinese): the current language unless given. */
export const formatDateTime = (value: DateInput, lang?: string): string =>
  format(value, DATE_TIME_FORMATS[dateLanguage(lang)]);
/** 31/01/2026 (English), 2026-01-31 (Chinese): the current language unless given. */
export const formatDate = (value: DateInput, lang?: string): string =>
  format(value, DATE_FORMATS[dateLanguage(lang)]);
/** 2026-01-31 */
export const formatIsoDate = (value: DateInput): string => format(value, ISO_DATE_FORMAT);

// The text helpers of spec 9 live in text.ts (no date library, so the first load can use them);
// they are exported here too, beside the formats.
export { capitalise, snakeToWords, stripSixDigitPrefix, withThousands } from './text';

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

/**
 * A day that moves tokens, in words with its weekday: "Tuesday 1 December 2026",
 * "2026年12月1日星期二". English is written by dayjs, as Intl adds a comma after the weekday.
 */
export function formatDayLong(day: string, lang?: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  if (!year || !month || !date) return day;
  if (dateLanguage(lang) === 'en') return dayjs(day, ISO_DATE_FORMAT).format('dddd D MMMM YYYY');
  return new Intl.DateTimeFormat('zh-CN', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, month - 1, date)));
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
