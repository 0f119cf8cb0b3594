/**
 * Token months (DESIGN 3.5). A company's token month opens at 00:00, in the programme's time zone,
 * on its reset day, clamped to the month's last day (31 → 28 in a short February), and is named by
 * the YYYY-MM of that day: with reset day 25, "2026-01" runs from 25 January to 25 February.
 */

export interface YearMonth {
  year: number;
  /** 1 to 12 */
  month: number;
}

export const formatPeriod = ({ year, month }: YearMonth): string =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;

export function parsePeriod(period: string): YearMonth {
  // Five digits too: the month after 9999-12 (the last a client may name) closes its window.
  const match = /^(\d{4,5})-(\d{2})$/.exec(period);
  if (!match) throw new Error(`Not a period: ${period}`);
  return { year: Number(match[1]), month: Number(match[2]) };
}

export function addMonths({ year, month }: YearMonth, count: number): YearMonth {
  const index = year * 12 + (month - 1) + count;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export const nextPeriod = (period: string): string =>
  formatPeriod(addMonths(parsePeriod(period), 1));

export const daysInMonth = ({ year, month }: YearMonth): number =>
  new Date(Date.UTC(year, month, 0)).getUTCDate();

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = partsFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock date and time of an instant in a time zone. */
export function zonedParts(instant: Date, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const p of partsFormatter(timeZone).formatToParts(instant)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Milliseconds the zone is ahead of UTC at an instant. */
function offsetAt(instant: Date, timeZone: string): number {
  const p = zonedParts(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A timestamp as the programme's local time, `YYYY-MM-DD HH:mm:ss`, which spreadsheets read: the
 * CSV exports and the settlement PDF write their times with it.
 */
export function localTime(value: string | Date | null | undefined, timeZone: string): string {
  if (value === null || value === undefined) return '';
  const p = zonedParts(new Date(value), timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}
/** The programme's local date (`YYYY-MM-DD`) of an instant: "today" of the day-bound rules and reads. */
export function localDate(instant: Date, timeZone: string): string {
  const p = zonedParts(instant, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** The instant of a wall-clock midnight in a time zone (a midnight skipped by DST moves later). */
export function zonedMidnight(year: number, month: number, day: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day);
  const first = wall - offsetAt(new Date(wall), timeZone);
  const second = wall - offsetAt(new Date(first), timeZone);
  return new Date(Math.max(first, second));
}

/** When the token month `period` opens for a company with this reset day. */
export function periodStart(period: string, resetDay: number, timeZone: string): Date {
  const ym = parsePeriod(period);
  return zonedMidnight(ym.year, ym.month, Math.min(resetDay, daysInMonth(ym)), timeZone);
}

/**
 * The token month a view of the month `month` counts for a company whose current token month is
 * `currentTokenMonth` (decision 0088): the one labelled `month` (it opens on the company's reset
 * day in that month), except while `month` is the calendar month under way (`underWay`) and that
 * token month has not opened yet — a company resetting on the 15th, on 1 December — when it is the
 * company's current one, so that "this month" shows what every company holds and spends now.
 */
export function countedTokenMonth(
  month: string,
  underWay: boolean,
  currentTokenMonth: string,
): string {
  return underWay && currentTokenMonth < month ? currentTokenMonth : month;
}

/** A token month's first and last local day, `YYYY-MM-DD`, both included ("15 Nov – 14 Dec"). */
export function tokenMonthDays(
  period: string,
  resetDay: number,
  timeZone: string,
): { from: string; to: string } {
  const next = periodStart(nextPeriod(period), resetDay, timeZone);
  return {
    from: localDate(periodStart(period, resetDay, timeZone), timeZone),
    to: localDate(new Date(next.getTime() - 1), timeZone),
  };
}

/** The token month an instant falls in, and when the next one opens. */
export function periodAt(
  instant: Date,
  resetDay: number,
  timeZone: string,
): { period: string; startsAt: Date; nextResetAt: Date } {
  const local = zonedParts(instant, timeZone);
  let current = formatPeriod({ year: local.year, month: local.month });
  if (periodStart(current, resetDay, timeZone) > instant) {
    current = formatPeriod(addMonths(parsePeriod(current), -1));
  }
  const next = nextPeriod(current);
  return {
    period: current,
    startsAt: periodStart(current, resetDay, timeZone),
    nextResetAt: periodStart(next, resetDay, timeZone),
  };
}

/**
 * The next reset after a change of reset day: the first month after the current token month whose
 * reset is still ahead, so that changing the day never expires balances on the spot.
 */
export function nextResetAfterChange(
  tokenMonth: string,
  resetDay: number,
  timeZone: string,
  now: Date,
): { period: string; at: Date } {
  let period = nextPeriod(tokenMonth);
  let at = periodStart(period, resetDay, timeZone);
  while (at <= now) {
    period = nextPeriod(period);
    at = periodStart(period, resetDay, timeZone);
  }
  return { period, at };
}

/** The instant at 00:00 of a YYYY-MM-DD day in a time zone. */
export function dayStart(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return zonedMidnight(y, m, d, timeZone);
}

/** The instant at 00:00 of the day after a YYYY-MM-DD day in a time zone. */
export function dayEnd(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return zonedMidnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone);
}

/** The first instant whose ISO text PostgreSQL cannot read (`+010000-…`): no bound reaches it. */
const BEYOND_YEAR_9999 = Date.UTC(10000, 0, 1);

/**
 * The instants of a filter's `date_from`/`date_to` days, both included: from 00:00 of the first
 * up to (excluding) 00:00 after the last. An end in year 10000 (after 9999-12-31, the last day
 * the contract's parser accepts) is left open instead, as no row can lie beyond it.
 */
export function dayRange(
  from: string | undefined,
  to: string | undefined,
  timeZone: string,
): { from: Date | undefined; to: Date | undefined } {
  const end = to ? dayEnd(to, timeZone) : undefined;
  return {
    from: from ? dayStart(from, timeZone) : undefined,
    to: end && end.getTime() < BEYOND_YEAR_9999 ? end : undefined,
  };
}
