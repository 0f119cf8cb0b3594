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

/*
 * Dates in words are written by dayjs with each language's pattern, not by Intl.DateTimeFormat:
 * the first Intl date format of a page builds ICU's pattern generator for its locale, ~45 ms of
 * main thread on the dashboard's first paint on a phone (measured: 186 ms of a 4x-slowed CPU
 * profile, the largest single function of the page's load). The patterns are Intl's own output
 * for en-GB and zh-CN.
 */
const WORD_FORMATS = {
  month: { en: 'MMMM YYYY', zh: 'YYYY[年]M[月]' },
  day: { en: 'D MMMM YYYY', zh: 'YYYY[年]M[月]D[日]' },
  shortMonth: { en: 'MMM', zh: 'M[月]' },
} as const;
const ZH_WEEKDAYS = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];

/** A wire day (`YYYY-MM-DD`) or month (`YYYY-MM`) as a dayjs date, or null when it is not one. */
function wireDay(value: string): dayjs.Dayjs | null {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 1)];
  if (!year || month < 1 || month > 12 || day < 1) return null;
  const date = dayjs(new Date(year, month - 1, day));
  return date.date() === day ? date : null;
}

/** `2025-01` in words: "January 2025", "2025年1月". */
export function formatMonthWords(month: string, lang: string | undefined): string {
  const date = wireDay(month.slice(0, 7));
  return date ? date.format(WORD_FORMATS.month[dateLanguage(lang)]) : month;
}

/** Month `1`–`12` in short words: "Jan", "1月" (the month picker's grid). */
export function formatShortMonth(month: number, lang: string | undefined): string {
  return dayjs(new Date(2000, month - 1, 1)).format(WORD_FORMATS.shortMonth[dateLanguage(lang)]);
}

/**
 * A day that moves tokens, in words with its weekday: "Tuesday 1 December 2026",
 * "2026年12月1日星期二" (English without the comma Intl puts after the weekday).
 */
export function formatDayLong(day: string, lang?: string): string {
  const date = wireDay(day);
  if (!date) return day;
  if (dateLanguage(lang) === 'en') return date.format('dddd D MMMM YYYY');
  return `${date.format(WORD_FORMATS.day.zh)}${ZH_WEEKDAYS[date.day()]}`;
}

/**
 * Two days (`YYYY-MM-DD`, both included) as a short range for a table's cell: "15 Nov – 14 Dec
 * 2026", "2026年11月15日 – 12月14日"; the year on both ends when they differ.
 */
export function formatDayRange(from: string, to: string, lang?: string): string {
  const [start, end] = [wireDay(from), wireDay(to)];
  if (!start || !end) return `${from} – ${to}`;
  const sameYear = start.year() === end.year();
  if (dateLanguage(lang) === 'en') {
    return `${start.format(sameYear ? 'D MMM' : 'D MMM YYYY')} – ${end.format('D MMM YYYY')}`;
  }
  return `${start.format(WORD_FORMATS.day.zh)} – ${end.format(sameYear ? 'M[月]D[日]' : WORD_FORMATS.day.zh)}`;
}

/** `2025-01-31` in words: "31 January 2025", "2025年1月31日". */
export function formatDayWords(day: string, lang: string | undefined): string {
  const date = wireDay(day);
  return date ? date.format(WORD_FORMATS.day[dateLanguage(lang)]) : day;
}
