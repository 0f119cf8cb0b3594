import { describe, expect, it } from 'vitest';
import { filenameFromDisposition } from './download';

describe('filenameFromDisposition', () => {
  it('reads the plain and the encoded filename of an attachment', () => {
    expect(filenameFromDisposition('attachment; filename="orders-2026-01-31.csv"')).toBe(
      'orders-2026-01-31.csv',
    );
    expect(filenameFromDisposition("attachment; filename*=UTF-8''%E8%AE%A2%E5%8D%95.csv")).toBe(
      '订单.csv',
    );
    expect(filenameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(filenameFromDisposition(undefined)).toBeUndefined();
  });
});
