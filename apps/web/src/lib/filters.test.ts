import { describe, expect, it } from 'vitest';
import { cleanEmptyFilters, numericOnly } from './filters';

describe('cleanEmptyFilters', () => {
  it('drops null, undefined, empty strings and NaN but keeps falsy values that mean something', () => {
    expect(
      cleanEmptyFilters({
        a: null,
        b: undefined,
        c: '',
        d: Number.NaN,
        e: 0,
        f: false,
        g: 'x',
        h: ['order_purchased'],
      }),
    ).toEqual({ e: 0, f: false, g: 'x', h: ['order_purchased'] });
  });
});

describe('numericOnly', () => {
  it('keeps the digits only', () => {
    expect(numericOnly('12a3-4.5 ')).toBe('12345');
    expect(numericOnly('abc')).toBe('');
  });
});
