import { dayEnd, dayStart, daysInMonth, zonedParts } from '../../lib/periods';

/**
 * Half-month settlement periods (DESIGN 6): the 1st to the 15th and the 16th to the month's last
 * day, each from 00:00 of its first day to 00:00 after its last, in the programme's time zone.
 */
export interface HalfMonth {
  /** YYYY-MM-DD, the 1st or the 16th. */
  start: string;
  /** YYYY-MM-DD, the 15th or the last day (included). */
  end: string;
  startsAt: Date;
  endsAt: Date;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dayText = (year: number, month: number, day: number) =>
  `${pad(year, 4)}-${pad(month)}-${pad(day)}`;

/** The half-month a calendar day falls in. */
export function halfMonthOf(day: string, timeZone: string): HalfMonth {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  const first = Number(day.slice(8, 10)) <= 15;
  const start = dayText(year, month, first ? 1 : 16);
  const end = dayText(year, month, first ? 15 : daysInMonth({ year, month }));
  return { start, end, startsAt: dayStart(start, timeZone), endsAt: dayEnd(end, timeZone) };
}

/** The half-month after this one. */
export function nextHalfMonth(period: HalfMonth, timeZone: string): HalfMonth {
  const year = Number(period.end.slice(0, 4));
  const month = Number(period.end.slice(5, 7));
  if (period.start.endsWith('-01')) return halfMonthOf(dayText(year, month, 16), timeZone);
  return month === 12
    ? halfMonthOf(dayText(year + 1, 1, 1), timeZone)
    : halfMonthOf(dayText(year, month + 1, 1), timeZone);
}

/** The half-month before this one. */
export function previousHalfMonth(period: HalfMonth, timeZone: string): HalfMonth {
  const year = Number(period.start.slice(0, 4));
  const month = Number(period.start.slice(5, 7));
  if (period.start.endsWith('-16')) return halfMonthOf(dayText(year, month, 1), timeZone);
  return month === 1
    ? halfMonthOf(dayText(year - 1, 12, 16), timeZone)
    : halfMonthOf(dayText(year, month - 1, 16), timeZone);
}

/** Every half-month that overlaps the days `from` to `to` (both included), oldest first. */
export function halfMonthsBetween(from: string, to: string, timeZone: string): HalfMonth[] {
  const periods: HalfMonth[] = [];
  // Stops at the half holding `to`: the one after 9999-12-16 would be in year 10000.
  for (let p = halfMonthOf(from, timeZone); ; p = nextHalfMonth(p, timeZone)) {
    periods.push(p);
    if (p.end >= to) return periods;
  }
}

/** Today's date in the programme's time zone. */
export function localToday(now: Date, timeZone: string): string {
  const p = zonedParts(now, timeZone);
  return dayText(p.year, p.month, p.day);
}

/** The first day of the month `months` before the month of `day`. */
export function monthsBefore(day: string, months: number): string {
  const index = Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1 - months;
  return dayText(Math.floor(index / 12), (index % 12) + 1, 1);
}
