import { describe, expect, it } from 'vitest';
import {
  dayEnd,
  dayStart,
  nextPeriod,
  nextResetAfterChange,
  periodAt,
  periodStart,
  zonedMidnight,
} from './periods';

describe('token months', () => {
  it('clamps reset day 31 to the last day of short months', () => {
    expect(periodStart('2026-02', 31, 'UTC').toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(periodStart('2028-02', 31, 'UTC').toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(periodStart('2026-04', 31, 'UTC').toISOString()).toBe('2026-04-30T00:00:00.000Z');
    expect(periodStart('2026-05', 31, 'UTC').toISOString()).toBe('2026-05-31T00:00:00.000Z');
    expect(periodStart('2026-02', 29, 'UTC').toISOString()).toBe('2026-02-28T00:00:00.000Z');
  });

  it('opens months at midnight in the programme time zone', () => {
    expect(periodStart('2026-03', 1, 'Asia/Shanghai').toISOString()).toBe(
      '2026-02-28T16:00:00.000Z',
    );
    // New York is on summer time (UTC-4) by 1 April, on winter time (UTC-5) on 1 March.
    expect(periodStart('2026-04', 1, 'America/New_York').toISOString()).toBe(
      '2026-04-01T04:00:00.000Z',
    );
    expect(periodStart('2026-03', 1, 'America/New_York').toISOString()).toBe(
      '2026-03-01T05:00:00.000Z',
    );
  });

  it('finds the month an instant is in, and the next reset', () => {
    expect(periodAt(new Date('2026-01-15T08:00:00Z'), 25, 'UTC')).toEqual({
      period: '2025-12',
      startsAt: new Date('2025-12-25T00:00:00Z'),
      nextResetAt: new Date('2026-01-25T00:00:00Z'),
    });
    expect(periodAt(new Date('2026-01-25T00:00:00Z'), 25, 'UTC').period).toBe('2026-01');
    expect(periodAt(new Date('2026-03-01T00:00:00Z'), 31, 'UTC')).toMatchObject({
      period: '2026-02',
      nextResetAt: new Date('2026-03-31T00:00:00Z'),
    });
    // 23:30 UTC on 31 January is already 1 February in Shanghai.
    expect(periodAt(new Date('2026-01-31T23:30:00Z'), 1, 'Asia/Shanghai').period).toBe('2026-02');
    expect(nextPeriod('2026-12')).toBe('2027-01');
  });

  it('moves the next reset, never to the past, when the reset day changes', () => {
    const now = new Date('2026-02-10T12:00:00Z');
    // From day 25 to day 5: 5 February has passed, so the month runs to 5 March.
    expect(nextResetAfterChange('2026-01', 5, 'UTC', now)).toEqual({
      period: '2026-03',
      at: new Date('2026-03-05T00:00:00Z'),
    });
    expect(nextResetAfterChange('2026-01', 20, 'UTC', now)).toEqual({
      period: '2026-02',
      at: new Date('2026-02-20T00:00:00Z'),
    });
  });

  it('turns days into instants in the time zone, both ends included', () => {
    expect(dayStart('2026-03-08', 'Asia/Shanghai').toISOString()).toBe('2026-03-07T16:00:00.000Z');
    expect(dayEnd('2026-03-31', 'UTC').toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(dayEnd('2026-12-31', 'UTC').toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(zonedMidnight(2026, 1, 1, 'UTC').toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
});
