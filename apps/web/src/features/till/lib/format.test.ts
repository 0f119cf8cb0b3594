import { describe, expect, it } from 'vitest';
import { formatDateTime } from '@/lib/format';
import { tillDateTime } from './format';

describe("the till's dates", () => {
  it.each(['2026-01-31T14:05:00.000Z', '2026-12-01T00:00:59.000Z', '2025-07-09T23:59:00+08:00'])(
    'are written as the rest of the app writes them: %s',
    (iso) => {
      for (const lang of ['en', 'zh', 'zh-CN']) {
        expect(tillDateTime(iso, lang)).toBe(formatDateTime(iso, lang));
      }
      expect(tillDateTime(iso, 'en')).not.toBe(tillDateTime(iso, 'zh'));
    },
  );

  it('leave an unreadable date out', () => {
    expect(tillDateTime('not a date', 'en')).toBe('');
  });
});
