import type {
  Company,
  CompanyListQuery,
  CreateCompanyBody,
  Status,
  UpdateCompanyBody,
} from '@app/contract';
import { createCompanyBodySchema, updateCompanyBodySchema } from '@app/contract';
import { AppError } from '../../lib/app-error';
import { pagedFilterOf } from '../../lib/sql';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { Tx } from '../../db/client';
import type { ServiceDeps, TimeDeps } from '../../lib/deps';
import { nextResetAfterChange, periodAt } from '../../lib/periods';
import type { TenantScope } from '../../lib/scope';
import { inTransaction, sqlState, violatedConstraint } from '../../lib/transaction';
import { lockCompany } from '../ledger';
import { openCompanyWallet } from '../ledger';
import {
  countCompanyAdmins,
  findCompanies,
  lookupCompany,
  insertCompany,
  toCompany,
  updateCompany,
} from './companies.repository';

/**
 * Creates a company in the token month it is created in, and credits its `init_token` for that
 * month (as `monthly_tokens_added`), so a new company can distribute at once. Runs in `tx`.
 */
export async function createCompanyIn(
  tx: Tx,
  { clock, config }: TimeDeps,
  actor: AuditActor | number | null,
  input: CreateCompanyBody,
): Promise<Company> {
  const body = createCompanyBodySchema.parse(input);
  const actorUserId = typeof actor === 'number' ? actor : (actor?.userId ?? null);
  const at = clock.now();
  const { period, nextResetAt } = periodAt(at, body.monthly_reset_day, config.APP_TIMEZONE);
  try {
    const company = await insertCompany(tx, {
      code: body.code,
      name: body.name,
      status: body.status,
      monthlyResetDay: body.monthly_reset_day,
      initToken: body.init_token,
      employeeMonthlyTokens: body.employee_monthly_tokens ?? 0,
      tokenMonth: period,
      nextResetAt,
      at,
    });
    await openCompanyWallet(tx, { company, at, actorUserId });
    const created = toCompany((await lookupCompany(tx, { kind: 'all' }, company.id))!);
    await recordAudit(tx, {
      actor,
      action: 'create',
      entityType: 'company',
      entityId: created.id,
      before: null,
      after: created,
      at,
    });
    return created;
  } catch (error) {
    throw codeConflict(error);
  }
}

/** A unique violation of the (case-insensitive) company code, as its catalogue error. */
function codeConflict(error: unknown): unknown {
  if (sqlState(error) === '23505' && violatedConstraint(error) === 'companies_code_key') {
    return new AppError('COMPANY_CODE_ALREADY_EXISTS');
  }
  return error;
}

export async function createCompany(
  deps: ServiceDeps,
  actor: AuditActor | number | null,
  input: CreateCompanyBody,
): Promise<Company> {
  try {
    return await inTransaction(deps.database, (tx) => createCompanyIn(tx, deps, actor, input));
  } catch (error) {
    // A race between two creators surfaces at COMMIT on some drivers: the same answer.
    throw codeConflict(error);
  }
}

export async function getCompany(
  { database }: ServiceDeps,
  scope: TenantScope,
  id: number,
): Promise<Company> {
  const row = await lookupCompany(database.db, scope, id);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return toCompany(row);
}

export async function listCompanies(
  { database }: ServiceDeps,
  scope: TenantScope,
  query: CompanyListQuery,
): Promise<{ data: Company[]; total: number }> {
  const { rows, total } = await findCompanies(database.db, scope, pagedFilterOf(query));
  const admins = await countCompanyAdmins(
    database.db,
    rows.map((row) => row.id),
  );
  return {
    data: rows.map((row) => ({ ...toCompany(row), admin_count: admins.get(row.id) ?? 0 })),
    total,
  };
}

/**
 * PUT /companies/{id} (spec 7): name, status, reset day and the monthly plan. The code never
 * changes and the balance moves only through the ledger. A new reset day takes effect like
 * PUT /tokens/configuration does (decision 0004): the current token month ends at its new reset
 * if that is still ahead, otherwise a month later, so changing it never resets on the spot.
 */
export async function updateCompanyDetails(
  { database, clock, config }: ServiceDeps,
  actor: AuditActor,
  scope: TenantScope,
  id: number,
  input: UpdateCompanyBody,
): Promise<Company> {
  const body = updateCompanyBodySchema.parse(input);
  const at = clock.now();
  return inTransaction(database, async (tx) => {
    if (!(await lookupCompany(tx, scope, id))) throw new AppError('RECORD_NOT_FOUND');
    // Locked like a reset locks it, so a running reset and this change take turns.
    const company = (await lockCompany(tx, id))!;
    const resetDayChanged = body.monthly_reset_day !== company.monthlyResetDay;
    const row = await updateCompany(tx, scope, id, {
      name: body.name,
      status: body.status,
      initToken: body.init_token,
      ...(resetDayChanged
        ? {
            monthlyResetDay: body.monthly_reset_day,
            nextResetAt: nextResetAfterChange(
              company.tokenMonth,
              body.monthly_reset_day,
              config.APP_TIMEZONE,
              at,
            ).at,
          }
        : {}),
      ...(body.init_token_next_month !== undefined
        ? { initTokenNextMonth: body.init_token_next_month }
        : {}),
      ...(body.employee_monthly_tokens !== undefined
        ? { employeeMonthlyTokens: body.employee_monthly_tokens }
        : {}),
      ...(body.pay_code_required !== undefined ? { payCodeRequired: body.pay_code_required } : {}),
      updatedAt: at,
    });
    const after = toCompany(row!);
    await recordAudit(tx, {
      actor,
      action: 'update',
      entityType: 'company',
      entityId: id,
      before: toCompany(company),
      after,
      at,
    });
    return after;
  });
}

export async function setCompanyStatus(
  { database, clock }: ServiceDeps,
  scope: TenantScope,
  id: number,
  status: Status,
  actor: AuditActor | null = null,
): Promise<Company> {
  const at = clock.now();
  return inTransaction(database, async (tx) => {
    const before = await lookupCompany(tx, scope, id);
    if (!before) throw new AppError('RECORD_NOT_FOUND');
    const row = await updateCompany(tx, scope, id, { status, updatedAt: at });
    const after = toCompany(row!);
    await recordAudit(tx, {
      actor,
      action: 'status_change',
      entityType: 'company',
      entityId: id,
      before: toCompany(before),
      after,
      at,
    });
    return after;
  });
}
