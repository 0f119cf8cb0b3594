import type {
  CurrentPeriod,
  SystemResetDate,
  SystemResetDateBody,
  SystemPeriod,
  SystemPeriodListQuery,
} from '@app/contract';
import type { Executor, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import { isoOrNull, iso } from '../../lib/numbers';
import {
  addMonths,
  dayStart,
  daysInMonth,
  formatPeriod,
  nextPeriod,
  parsePeriod,
  zonedMidnight,
  zonedParts,
  type YearMonth,
} from '../../lib/periods';
import { inTransaction } from '../../lib/transaction';
import {
  closePeriod,
  findPeriods,
  lookupCurrentPeriod,
  lookupSettings,
  insertPeriod,
  insertSettings,
  lockSystemPeriods,
  updateSettings,
  type SystemPeriodRow,
  type SystemSettingsRow,
} from './system.repository';

/**
 * The system period is the platform's reporting month (DESIGN 3.5, decision 0006). The current
 * period ends at 00:00 (APP_TIMEZONE) of `next_reset_date`; the reset opens the next period and
 * schedules the one after on `reset_day` of the following month. Nothing has to run at that
 * instant: every read advances the periods first (lazily, from the injected clock), and
 * `advanceSystemPeriods` does the same on the jobs timer (`jobs.timer.ts`), so a period opens with no read.
 */

interface SystemPeriodState {
  current: SystemPeriodRow;
  settings: SystemSettingsRow;
}

/** Catching up after a long stop opens at most this many periods at once (100 years). */
const MAX_PERIODS_PER_ADVANCE = 1200;

const pad = (n: number) => String(n).padStart(2, '0');
const formatDay = ({ year, month }: YearMonth, day: number) =>
  `${formatPeriod({ year, month })}-${pad(day)}`;

/** The calendar day of an instant in the time zone, YYYY-MM-DD. */
export function localDay(instant: Date, timeZone: string): string {
  const p = zonedParts(instant, timeZone);
  return formatDay({ year: p.year, month: p.month }, p.day);
}

/** `resetDay` of the month after `day`'s month, clamped to that month's last day. */
export function followingSystemResetDate(day: string, resetDay: number): string {
  const next = addMonths(parsePeriod(day.slice(0, 7)), 1);
  return formatDay(next, Math.min(resetDay, daysInMonth(next)));
}

/**
 * The name of the period a reset on `resetDate` opens: the month of that day, or the month after
 * the closing period if that is later, so names are unique and always move forward.
 */
export function periodOpenedOn(closing: string, resetDate: string): string {
  const byDay = resetDate.slice(0, 7);
  const following = nextPeriod(closing);
  return byDay > following ? byDay : following;
}

async function readState(executor: Executor): Promise<SystemPeriodState | null> {
  const [settings, current] = await Promise.all([
    lookupSettings(executor),
    lookupCurrentPeriod(executor),
  ]);
  return settings && current ? { settings, current } : null;
}

/**
 * Under the lock: creates the first period when there is none (the calendar month of `now`,
 * resetting on the 1st), then applies every reset that `now` has passed. Returns the periods it
 * opened.
 */
async function advanceLocked(
  tx: Tx,
  now: Date,
  timeZone: string,
): Promise<{ state: SystemPeriodState; opened: string[] }> {
  const opened: string[] = [];
  let state = await readState(tx);
  if (!state) {
    const local = zonedParts(now, timeZone);
    const month = { year: local.year, month: local.month };
    if (!(await lookupCurrentPeriod(tx))) {
      const period = formatPeriod(month);
      await insertPeriod(tx, {
        period,
        startsAt: zonedMidnight(month.year, month.month, 1, timeZone),
      });
      opened.push(period);
    }
    await insertSettings(tx, { nextResetDate: formatDay(addMonths(month, 1), 1), resetDay: 1 });
    state = (await readState(tx))!;
  }

  let { current, settings } = state;
  for (let i = 0; i < MAX_PERIODS_PER_ADVANCE; i += 1) {
    const boundary = dayStart(settings.nextResetDate, timeZone);
    if (now < boundary) break;
    const period = periodOpenedOn(current.period, settings.nextResetDate);
    await closePeriod(tx, current.period, boundary);
    await insertPeriod(tx, { period, startsAt: boundary });
    const nextResetDate = followingSystemResetDate(settings.nextResetDate, settings.resetDay);
    await updateSettings(tx, { nextResetDate });
    current = { period, startsAt: boundary, endsAt: null };
    settings = { ...settings, nextResetDate };
    opened.push(period);
  }
  return { state: { current, settings }, opened };
}

async function advance(
  { database, config }: ServiceDeps,
  now: Date,
): Promise<{ state: SystemPeriodState; opened: string[] }> {
  return inTransaction(database, async (tx) => {
    await lockSystemPeriods(tx);
    return advanceLocked(tx, now, config.APP_TIMEZONE);
  });
}

/** The state as of now; takes the lock only when a reset is due (or on first use). */
async function currentState(deps: ServiceDeps): Promise<SystemPeriodState> {
  const now = deps.clock.now();
  // One snapshot for both rows: two separate reads could see the settings after a concurrent
  // advance committed and the period from before it, and answer the closed period.
  const state = await deps.database.db.transaction((tx) => readState(tx), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
  if (state && now < dayStart(state.settings.nextResetDate, deps.config.APP_TIMEZONE)) {
    return state;
  }
  return (await advance(deps, now)).state;
}

/**
 * Applies every system reset that is due; for the jobs timer, so periods open on time even when
 * nobody reads them. Returns the periods opened (empty when none was due). Safe on every instance.
 */
export async function advanceSystemPeriods(deps: ServiceDeps): Promise<string[]> {
  return (await advance(deps, deps.clock.now())).opened;
}

const scheduledEnd = (settings: SystemSettingsRow, timeZone: string) =>
  dayStart(settings.nextResetDate, timeZone);

export async function getCurrentSystemPeriod(deps: ServiceDeps): Promise<CurrentPeriod> {
  const { current, settings } = await currentState(deps);
  return {
    period: current.period,
    starts_at: iso(current.startsAt),
    ends_at: iso(scheduledEnd(settings, deps.config.APP_TIMEZONE)),
    next_reset_date: settings.nextResetDate,
  };
}

export async function listSystemPeriods(
  deps: ServiceDeps,
  query: SystemPeriodListQuery,
): Promise<{ data: SystemPeriod[]; total: number }> {
  const { settings } = await currentState(deps);
  const end = scheduledEnd(settings, deps.config.APP_TIMEZONE);
  const { rows, total } = await findPeriods(deps.database.db, {
    page: query.page,
    pageSize: query.page_size,
  });
  return {
    data: rows.map((row) => ({
      period: row.period,
      starts_at: iso(row.startsAt),
      ends_at: iso(row.endsAt ?? end),
      is_current: row.endsAt === null,
    })),
    total,
  };
}

const toSystemResetDate = (settings: SystemSettingsRow): SystemResetDate => ({
  reset_date: settings.nextResetDate,
  updated_at: isoOrNull(settings.updatedAt),
  updated_by: settings.updatedBy,
});

export async function getSystemResetDate(deps: ServiceDeps): Promise<SystemResetDate> {
  return toSystemResetDate((await currentState(deps)).settings);
}

/**
 * Moves the end of the current period to 00:00 of `reset_date` (a day after today in
 * APP_TIMEZONE); later resets follow on the same day of each month. Audit-logged.
 */
export async function setSystemResetDate(
  { database, clock, config }: ServiceDeps,
  actor: AuditActor,
  body: SystemResetDateBody,
): Promise<SystemResetDate> {
  const now = clock.now();
  const timeZone = config.APP_TIMEZONE;
  if (body.reset_date <= localDay(now, timeZone)) {
    throw new AppError('BODY_INVALID', { metadata: { reset_date: 'v.reset_date_future' } });
  }
  return inTransaction(database, async (tx) => {
    await lockSystemPeriods(tx);
    const { state } = await advanceLocked(tx, now, timeZone);
    const changes = {
      nextResetDate: body.reset_date,
      resetDay: Number(body.reset_date.slice(8, 10)),
      updatedAt: now,
      updatedBy: actor.userId,
    };
    await updateSettings(tx, changes);
    const before = { ...toSystemResetDate(state.settings), reset_day: state.settings.resetDay };
    const settings = { ...state.settings, ...changes };
    const after = toSystemResetDate(settings);
    await recordAudit(tx, {
      actor,
      action: 'update',
      entityType: 'system_settings',
      entityId: 'reset_date',
      before,
      after: { ...after, reset_day: settings.resetDay, current_period: state.current.period },
      at: now,
    });
    return after;
  });
}
