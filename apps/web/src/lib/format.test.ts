import { describe, expect, it } from 'vitest';
import {
  capitalise,
  formatDate,
  formatDayRange,
  formatDateTime,
  formatDayLong,
  formatDayWords,
  formatMonthWords,
  formatShortMonth,
  formatIsoDate,
  snakeToWords,
  stripSixDigitPrefix,
  withThousands,
} from './format';

describe('text helpers', () => {
  it('turns snake_case into capitalised words', () => {
    expect(snakeToWords('order_purchased')).toBe('Order Purchased');
    expect(snakeToWords('monthly_tokens_reset')).toBe('Monthly Tokens Reset');
    expect(snakeToWords('reset-period-date')).toBe('Reset Period Date');
    expect(snakeToWords('admin')).toBe('Admin');
  });

  it('separates thousands with commas and keeps sign and decimals', () => {
    expect(withThousands(0)).toBe('0');
    expect(withThousands(999)).toBe('999');
    expect(withThousands(1000)).toBe('1,000');
    expect(withThousands(1234567)).toBe('1,234,567');
    expect(withThousands(-1234567.25)).toBe('-1,234,567.25');
    expect(withThousands('9876543')).toBe('9,876,543');
    expect(withThousands(null)).toBe('');
  });

  it('strips a leading six-digit prefix only', () => {
    expect(stripSixDigitPrefix('202601000123')).toBe('000123');
    expect(stripSixDigitPrefix('123456-Acme')).toBe('Acme');
    expect(stripSixDigitPrefix('12345-Acme')).toBe('12345-Acme');
    expect(stripSixDigitPrefix('Acme 123456')).toBe('Acme 123456');
  });

  it('capitalises the first letter of a message', () => {
    expect(capitalise('invalid input')).toBe('Invalid input');
    expect(capitalise('')).toBe('');
  });
});

describe('date formats', () => {
  const date = new Date(2026, 0, 31, 14, 5);

  it('formats date and time as DD/MM/YYYY HH:mm', () => {
    expect(formatDateTime(date)).toBe('31/01/2026 14:05');
  });

  it('formats a date as DD/MM/YYYY', () => {
    expect(formatDate(date)).toBe('31/01/2026');
  });

  it('formats a wire date as yyyy-MM-dd', () => {
    expect(formatIsoDate(date)).toBe('2026-01-31');
  });

  it('gives an empty string for missing or invalid dates', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('dates in words', () => {
  // Written by dayjs patterns (no ICU pattern generator on the first paint); they must read as
  // Intl writes the same day in en-GB and zh-CN, every month of a leap year and a common year.
  const intl = (locale: string, options: Intl.DateTimeFormatOptions, y: number, m: number, d = 1) =>
    new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(
      new Date(Date.UTC(y, m - 1, d)),
    );
  const pad = (n: number) => String(n).padStart(2, '0');

  it('writes months and days as Intl does in English (en-GB) and Chinese (zh-CN)', () => {
    for (const year of [2024, 2026]) {
      for (let month = 1; month <= 12; month++) {
        const wire = `${year}-${pad(month)}`;
        expect(formatMonthWords(wire, 'en')).toBe(
          intl('en-GB', { year: 'numeric', month: 'long' }, year, month),
        );
        expect(formatMonthWords(wire, 'zh-CN')).toBe(
          intl('zh-CN', { year: 'numeric', month: 'long' }, year, month),
        );
        for (const day of [1, 9, 28]) {
          const long = { year: 'numeric', month: 'long', day: 'numeric' } as const;
          expect(formatDayWords(`${wire}-${pad(day)}`, 'en')).toBe(
            intl('en-GB', long, year, month, day),
          );
          expect(formatDayWords(`${wire}-${pad(day)}`, 'zh')).toBe(
            intl('zh-CN', long, year, month, day),
          );
          expect(formatDayLong(`${wire}-${pad(day)}`, 'zh')).toBe(
            intl('zh-CN', { ...long, weekday: 'long' }, year, month, day),
          );
        }
      }
    }
    expect(formatDayWords('2024-02-29', 'en')).toBe('29 February 2024');
    expect(formatDayLong('2026-12-01', 'en')).toBe('Tuesday 1 December 2026');
    expect(formatShortMonth(1, 'en')).toBe('Jan');
    expect(formatShortMonth(12, 'zh')).toBe('12月');
  });

  it('gives back what is not a day or a month unchanged', () => {
    expect(formatDayWords('2025-02-30', 'en')).toBe('2025-02-30');
    expect(formatDayWords('soon', 'en')).toBe('soon');
    expect(formatMonthWords('2025-13', 'zh')).toBe('2025-13');
    expect(formatDayLong('', 'en')).toBe('');
  });
});

describe('formatDayRange', () => {
  it('writes the year once when both days share it', () => {
    expect(formatDayRange('2026-11-15', '2026-12-14', 'en')).toBe('15 Nov – 14 Dec 2026');
    expect(formatDayRange('2026-11-15', '2026-12-14', 'zh')).toBe('2026年11月15日 – 12月14日');
  });

  it('writes both years across a new year, and the wire text when a day is not one', () => {
    expect(formatDayRange('2026-12-15', '2027-01-14', 'en')).toBe('15 Dec 2026 – 14 Jan 2027');
    expect(formatDayRange('2026-12-15', '2027-01-14', 'zh')).toBe('2026年12月15日 – 2027年1月14日');
    expect(formatDayRange('2026-02-30', '2026-03-01', 'en')).toBe('2026-02-30 – 2026-03-01');
  });
});
