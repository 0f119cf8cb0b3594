import { describe, expect, it } from 'vitest';
import {
  dayProblem,
  daySchema,
  monthProblem,
  orderCursor,
  transactionCursor,
  YEAR_MAX,
  YEAR_MIN,
} from './calendar';
import { tokenAmountSchema } from './validation';
import { createOrderBodySchema } from './orders';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : r.error!.issues[0]!.message;

describe('the one day and month parser', () => {
  it.each([
    ['2026-02-28', null],
    ['2028-02-29', null],
    ['2000-02-29', null],
    ['1970-01-01', null],
    ['9999-12-31', null],
    ['2026-02-29', 'v.date_not_in_calendar'],
    ['1900-02-29', 'v.year_range'],
    ['2100-02-29', 'v.date_not_in_calendar'],
    ['2026-02-31', 'v.date_not_in_calendar'],
    ['2026-04-31', 'v.date_not_in_calendar'],
    ['2026-00-10', 'v.date_not_in_calendar'],
    ['2026-01-00', 'v.date_not_in_calendar'],
    ['0000-01-01', 'v.year_range'],
    ['1969-12-31', 'v.year_range'],
    ['10000-01-01', 'v.date_invalid'],
    ['2026-1-1', 'v.date_invalid'],
    [' 2026-01-01', 'v.date_invalid'],
    [20260101, 'v.date_invalid'],
  ])('reads the day %j as %s', (day, problem) => {
    expect(dayProblem(day)).toBe(problem);
    expect(firstMessage(daySchema.safeParse(day))).toBe(problem);
  });

  it('accepts months of 1970 to 9999 only, and says which rule a month breaks', () => {
    expect([YEAR_MIN, YEAR_MAX]).toEqual([1970, 9999]);
    expect(monthProblem('9999-12')).toBeNull();
    expect(monthProblem('1970-01')).toBeNull();
    expect(monthProblem('1969-12')).toBe('v.year_range');
    expect(monthProblem('2026-13')).toBe('v.month_invalid');
    expect(monthProblem('10000-01')).toBe('v.month_invalid');
  });
});

describe('opaque cursors', () => {
  it('read back exactly what they wrote', () => {
    const seq = transactionCursor.encode([Number.MAX_SAFE_INTEGER]);
    expect(transactionCursor.decode(seq)).toEqual([Number.MAX_SAFE_INTEGER]);
    const order = orderCursor.encode(['2026-03-01T10:00:00.123456Z', 42]);
    expect(orderCursor.decode(order)).toEqual(['2026-03-01T10:00:00.123456Z', 42]);
    expect(transactionCursor.schema.safeParse(seq).success).toBe(true);
  });

  it('refuse anything else: other shapes, broken base64, impossible instants', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    for (const text of [
      '',
      'AAAA',
      'a',
      '!!!',
      b64('[0]'),
      b64('[1.5]'),
      b64('[1e400]'),
      b64('[1,2]'),
    ]) {
      expect(transactionCursor.decode(text), text).toBeNull();
      expect(firstMessage(transactionCursor.schema.safeParse(text)), text).toBe('v.cursor_invalid');
    }
    for (const at of [
      '2026-02-31T00:00:00.000000Z',
      '2026-01-01T24:00:00.000000Z',
      '0000-01-01T00:00:00.000000Z',
    ]) {
      expect(orderCursor.decode(b64(JSON.stringify([at, 1]))), at).toBeNull();
    }
  });
});

describe('numbers that say what is wrong', () => {
  it('calls Infinity out of range, a string not a number, and only a missing value required', () => {
    expect(firstMessage(tokenAmountSchema.safeParse(Infinity))).toBe('v.number_range');
    expect(firstMessage(tokenAmountSchema.safeParse('5'))).toBe('v.number_invalid');
    expect(firstMessage(tokenAmountSchema.safeParse(undefined))).toBe('v.amount_required');
    expect(firstMessage(tokenAmountSchema.safeParse(2 ** 53))).toBe('v.amount_too_large');
    expect(firstMessage(tokenAmountSchema.safeParse(1.5))).toBe('v.integer');
  });

  it('says an order total past 2^53 - 1 is too large, and a zero total is not positive', () => {
    const order = (quantity: number, unit: number) =>
      createOrderBodySchema.safeParse({
        company_code: 'ACME',
        employee_id: 'E1',
        order_type: 'meal',
        items: [{ name: 'x', quantity, unit_tokens: unit }],
      });
    expect(firstMessage(order(10_000, 2 ** 50))).toBe('v.subtotal_too_large');
    expect(firstMessage(order(1, 0))).toBe('v.amount_positive');
  });
});
