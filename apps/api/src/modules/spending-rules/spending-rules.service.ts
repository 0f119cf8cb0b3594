// Spending rules (DESIGN 7, decision 0077): a company's versioned rule sets, its employees'
// exceptions, the holiday calendar and the declines kept, each change audited in its transaction.
import type {
  Holiday,
  OrderDecline,
  OrderDeclinesQuery,
  PutHolidaysBody,
  PutSpendingRulesBody,
  SpendingException,
  SpendingExceptionBody,
  SpendingRules,
  SpendingRulesView,
  SpendingRuleVersion,
} from '@app/contract';
import { putSpendingRulesBodySchema } from '@app/contract';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import type { TenantScope } from '../../lib/scope';
import { localDate } from '../../lib/periods';
import { inTransaction } from '../../lib/transaction';
import { getCompany } from '../companies';
import { getEmployee } from '../employees';
import { previewRules, remainingToday } from '../spending-judge';
import {
  deleteException,
  deleteScheduledVersion,
  findDeclines,
  lookupException,
  findHolidays,
  findRuleVersions,
  replaceHolidays,
  upsertException,
  upsertRuleVersion,
} from './spending-rules.repository';

/** The version in force on `day`, the later ones and the earlier ones. */
export function viewOf(versions: SpendingRuleVersion[], day: string): SpendingRulesView {
  const past = versions.filter((v) => v.effective_from <= day);
  return {
    current: past.at(-1) ?? null,
    scheduled: versions.filter((v) => v.effective_from > day),
    history: past.slice(0, -1).reverse(),
  };
}

export async function getSpendingRules(
  deps: ServiceDeps,
  scope: TenantScope,
  companyId: number,
): Promise<SpendingRulesView> {
  await getCompany(deps, scope, companyId);
  const versions = await findRuleVersions(deps.database.db, companyId);
  return viewOf(versions, localDate(deps.clock.now(), deps.config.APP_TIMEZONE));
}

/** PUT: a version from `effective_from` (today or later); the same date again replaces it. */
export async function putSpendingRules(
  deps: ServiceDeps,
  actor: AuditActor,
  scope: TenantScope,
  companyId: number,
  input: PutSpendingRulesBody,
): Promise<SpendingRulesView> {
  const { effective_from, ...rules } = putSpendingRulesBodySchema.parse(input);
  await getCompany(deps, scope, companyId);
  const at = deps.clock.now();
  const today = localDate(at, deps.config.APP_TIMEZONE);
  if (effective_from < today) {
    throw new AppError('BODY_INVALID', { metadata: { effective_from: 'v.effective_from_past' } });
  }
  return inTransaction(deps.database, async (tx) => {
    const before = (await findRuleVersions(tx, companyId)).find(
      (v) => v.effective_from === effective_from,
    );
    await upsertRuleVersion(tx, companyId, effective_from, rules, { userId: actor.userId, at });
    const versions = await findRuleVersions(tx, companyId);
    await recordAudit(tx, {
      actor,
      action: 'spending_rules_set',
      entityType: 'company',
      entityId: companyId,
      before: before ?? null,
      after: versions.find((v) => v.effective_from === effective_from),
      at,
    });
    return viewOf(versions, today);
  });
}

/** DELETE: withdraws a scheduled version; the one in force and the past stay (404 otherwise). */
export async function withdrawSpendingRules(
  deps: ServiceDeps,
  actor: AuditActor,
  scope: TenantScope,
  companyId: number,
  effectiveFrom: string,
): Promise<void> {
  await getCompany(deps, scope, companyId);
  const at = deps.clock.now();
  const today = localDate(at, deps.config.APP_TIMEZONE);
  await inTransaction(deps.database, async (tx) => {
    const before = (await findRuleVersions(tx, companyId)).find(
      (v) => v.effective_from === effectiveFrom,
    );
    if (!(await deleteScheduledVersion(tx, companyId, effectiveFrom, today))) {
      throw new AppError('SPENDING_RULE_NOT_FOUND');
    }
    await recordAudit(tx, {
      actor,
      action: 'spending_rules_withdraw',
      entityType: 'company',
      entityId: companyId,
      before: before ?? null,
      after: null,
      at,
    });
  });
}

/** POST …/preview: the candidate replayed over the company's last 30 days; writes nothing. */
export async function previewSpendingRules(
  deps: ServiceDeps,
  scope: TenantScope,
  companyId: number,
  rules: SpendingRules,
): Promise<unknown> {
  await getCompany(deps, scope, companyId);
  const now = deps.clock.now();
  const from = new Date(now.getTime() - 30 * 86_400_000);
  return previewRules(deps.database.db, companyId, rules, deps.config.APP_TIMEZONE, from, now);
}

export async function lookupSpendingException(
  deps: ServiceDeps,
  scope: TenantScope,
  employeeId: number,
): Promise<SpendingException | null> {
  await getEmployee(deps, scope, employeeId);
  return lookupException(deps.database.db, employeeId);
}

export async function putSpendingException(
  deps: ServiceDeps,
  actor: AuditActor,
  scope: TenantScope,
  employeeId: number,
  body: SpendingExceptionBody,
): Promise<SpendingException> {
  await getEmployee(deps, scope, employeeId);
  const at = deps.clock.now();
  return inTransaction(deps.database, async (tx) => {
    const before = await lookupException(tx, employeeId);
    const after = await upsertException(tx, employeeId, body, { userId: actor.userId, at });
    await recordAudit(tx, {
      actor,
      action: 'spending_exception_set',
      entityType: 'employee',
      entityId: employeeId,
      before,
      after,
      at,
    });
    return after;
  });
}

export async function removeSpendingException(
  deps: ServiceDeps,
  actor: AuditActor,
  scope: TenantScope,
  employeeId: number,
): Promise<void> {
  await getEmployee(deps, scope, employeeId);
  const at = deps.clock.now();
  await inTransaction(deps.database, async (tx) => {
    const before = await lookupException(tx, employeeId);
    if (!before || !(await deleteException(tx, employeeId))) {
      throw new AppError('RECORD_NOT_FOUND');
    }
    await recordAudit(tx, {
      actor,
      action: 'spending_exception_remove',
      entityType: 'employee',
      entityId: employeeId,
      before,
      after: null,
      at,
    });
  });
}

export async function getHolidays(
  deps: ServiceDeps,
  year: number,
): Promise<{ year: number; days: Holiday[] }> {
  return { year, days: await findHolidays(deps.database.db, year) };
}

export async function putHolidays(
  deps: ServiceDeps,
  actor: AuditActor,
  body: PutHolidaysBody,
): Promise<{ year: number; days: Holiday[] }> {
  const at = deps.clock.now();
  return inTransaction(deps.database, async (tx) => {
    const before = await findHolidays(tx, body.year);
    await replaceHolidays(tx, body.year, body.days);
    const days = await findHolidays(tx, body.year);
    await recordAudit(tx, {
      actor,
      action: 'holidays_set',
      entityType: 'system_settings',
      entityId: `holidays:${body.year}`,
      before: { year: body.year, days: before },
      after: { year: body.year, days },
      at,
    });
    return { year: body.year, days };
  });
}

/** GET /orders/declines: the declines of the caller's scope. */
export async function listDeclines(
  deps: ServiceDeps,
  scope: TenantScope,
  query: OrderDeclinesQuery,
): Promise<{ data: OrderDecline[]; total: number }> {
  const tz = deps.config.APP_TIMEZONE;
  const startOf = (day: string) => zonedMidnight(day, tz);
  const nextDay = (day: string) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const { rows, total } = await findDeclines(deps.database.db, scope, {
    companyId: query.company_id,
    merchantId: query.merchant_id,
    employeeId: query.employee_id,
    code: query.code,
    from: query.date_from ? startOf(query.date_from) : undefined,
    to: query.date_to ? startOf(nextDay(query.date_to)) : undefined,
    page: query.page,
    pageSize: query.page_size,
  });
  return { data: rows, total };
}

/** 00:00 of a local day in `timeZone`, as an instant. */
function zonedMidnight(day: string, timeZone: string): Date {
  const utc = Date.parse(`${day}T00:00:00Z`);
  // The zone's offset at that moment, then corrected once for a change of offset across it.
  const offsetAt = (ms: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date(ms));
    const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
    const asUtc = Date.UTC(
      get('year'),
      get('month') - 1,
      get('day'),
      get('hour'),
      get('minute'),
      get('second'),
    );
    return asUtc - ms;
  };
  const first = utc - offsetAt(utc);
  return new Date(utc - offsetAt(first));
}

/** The wallet's spending rules: what may still be spent today, the rules, the recent declines. */
export async function walletSpending(
  deps: ServiceDeps,
  scope: TenantScope,
  employee: { id: number; companyId: number },
): Promise<{
  remaining_today: number | null;
  spending_rules: SpendingRuleVersion | null;
  spending_exception: SpendingException | null;
  declines: OrderDecline[];
}> {
  const now = deps.clock.now();
  const db = deps.database.db;
  const today = localDate(now, deps.config.APP_TIMEZONE);
  const [remaining, versions, exception, declines] = await Promise.all([
    remainingToday(db, employee.id, deps.config.APP_TIMEZONE, now),
    findRuleVersions(db, employee.companyId),
    lookupException(db, employee.id),
    findDeclines(db, scope, { employeeId: employee.id, page: 1, pageSize: 10 }),
  ]);
  const current = viewOf(versions, today).current;
  return {
    remaining_today: remaining,
    spending_rules: current,
    spending_exception:
      exception && (exception.until === null || today <= exception.until) ? exception : null,
    declines: declines.rows,
  };
}
