import { describe, expect, it } from 'vitest';
import {
  capitalise,
  formatDate,
  formatDateTime,
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
