import { LRUCache } from 'lru-cache';
import type {
  CreateEmployeeBody,
  Employee,
  EmployeeEventField,
  EmployeeListQuery,
  Status,
  UpdateEmployeeBody,
} from '@app/contract';
import {
  createEmployeeBodySchema,
  EMPLOYEE_EVENT_FIELDS,
  updateEmployeeBodySchema,
} from '@app/contract';
import { AppError } from '../../lib/app-error';
import { stateSlot } from '../../lib/app-state';
import { pagedFilterOf } from '../../lib/sql';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { Executor, Tx } from '../../db/client';
import type { ServiceDeps } from '../../lib/deps';
import type { TenantScope } from '../../lib/scope';
import { inTransaction, sqlState, violatedConstraint } from '../../lib/transaction';
import { shareLockCompany } from '../companies';
import { renewEmployee as renewInLedger } from '../ledger';
import { revokeUserSessions } from '../iam';
import { recordEvent } from '../webhooks';
import {
  deleteEmployeeAccount,
  findEmailCompanies,
  lookupEmployeeRow,
  lookupEmployeeView,
  findEmployeeViews,
  findEmployeeViewsFrom,
  insertEmployee,
  isStaffNumberTaken,
  markEmployeeDeleted,
  relinkEmployeeAccount,
  updateEmployeeRow,
  updateEmployeeStatus,
  type EmployeeCounts,
} from './employees.repository';

// The employees export reads the list through these (one scope rule for both).

const ENTITY = 'employee';

/** An employee as its webhook events show it (decision 0084): never a balance. */
const eventData = (employee: Employee) => ({
  id: employee.id,
  employee_id: employee.employee_id,
  name: employee.name,
  email: employee.email,
  status: employee.status,
  monthly_tokens: employee.monthly_tokens,
  updated_at: employee.updated_at,
});

/**
 * The webhook event of a change from `before` to `after`, in the change's transaction (decision
 * 0084): `employee.deactivated` when it went from active to inactive, `employee.updated` when any
 * other event field changed, nothing when none did.
 */
async function recordEmployeeChange(tx: Tx, before: Employee, after: Employee, at: Date) {
  const changed: EmployeeEventField[] = EMPLOYEE_EVENT_FIELDS.filter(
    (field) => before[field] !== after[field],
  );
  if (changed.length === 0) return;
  const deactivated = before.status === 'active' && after.status === 'inactive';
  await recordEvent(tx, {
    type: deactivated ? 'employee.deactivated' : 'employee.updated',
    companyId: after.company_id,
    data: { ...eventData(after), changed, ...(deactivated ? { deleted: false } : {}) },
    at,
  });
}

/** The company an employee request acts on: the caller's own, or the one admin and HR name. */
function targetCompany(scope: TenantScope, companyId: number | undefined): number {
  if (scope.kind === 'company' || scope.kind === 'self') {
    if (companyId !== undefined && companyId !== scope.companyId) {
      throw new AppError('RECORD_NOT_FOUND');
    }
    return scope.companyId;
  }
  if (scope.kind === 'all' && companyId !== undefined) return companyId;
  if (scope.kind === 'all') {
    throw new AppError('BODY_INVALID', { metadata: { company_id: 'v.company_required' } });
  }
  throw new AppError('RECORD_NOT_FOUND');
}

/** Unique violations of the employees table, as the spec's codes. */
function duplicateError(error: unknown): AppError | undefined {
  if (sqlState(error) === '23505' && violatedConstraint(error) === 'employees_company_staff_key') {
    return new AppError('EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY');
  }
  return emailDuplicateError(error);
}

/**
 * The email indexes' violations (migration 0028), as the spec's codes: the company's own index is
 * checked first, so a violation of the index across companies means another company's employee
 * holds the address. Reached only when another transaction wrote the address after the services'
 * own check (the import maps its failures with it too).
 */
export function emailDuplicateError(error: unknown): AppError | undefined {
  if (sqlState(error) !== '23505') return undefined;
  const constraint = violatedConstraint(error);
  if (constraint === 'employees_company_email_key') {
    return new AppError('EMAIL_EXISTING_IN_THIS_COMPANY');
  }
  if (constraint === 'employees_email_key') return new AppError('EMAIL_EXISTING_IN_OTHER_COMPANY');
  return undefined;
}

/**
 * The spec's duplicate codes, checked before writing so the answer names the right one; the unique
 * indexes stay the last line of defence (their violations map to the same codes).
 */
async function assertUnique(
  executor: Executor,
  companyId: number,
  values: { staffNumber?: string | undefined; email?: string | null | undefined },
  exceptId?: number,
): Promise<void> {
  if (
    values.staffNumber !== undefined &&
    (await isStaffNumberTaken(executor, companyId, values.staffNumber, exceptId))
  ) {
    throw new AppError('EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY');
  }
  if (values.email) {
    const owners = await findEmailCompanies(executor, values.email, exceptId);
    if (owners.includes(companyId)) throw new AppError('EMAIL_EXISTING_IN_THIS_COMPANY');
    if (owners.length > 0) throw new AppError('EMAIL_EXISTING_IN_OTHER_COMPANY');
  }
}

/** Adds an employee to its company's current token month. Runs in `tx`. */
export async function createEmployeeIn(
  tx: Tx,
  { clock }: Pick<ServiceDeps, 'clock'>,
  scope: TenantScope,
  input: CreateEmployeeBody,
  actor: AuditActor | null = null,
): Promise<Employee> {
  const body = createEmployeeBodySchema.parse(input);
  const companyId = targetCompany(scope, body.company_id);
  try {
    // Shared lock: waits out a running reset, so the employee joins the month it opened.
    const company = await shareLockCompany(tx, scope, companyId);
    if (!company) throw new AppError('RECORD_NOT_FOUND');
    await assertUnique(tx, companyId, { staffNumber: body.employee_id, email: body.email });
    const at = clock.now();
    const row = await insertEmployee(tx, {
      companyId,
      employeeId: body.employee_id,
      name: body.name || null,
      email: body.email || null,
      status: body.status,
      monthlyTokens: body.monthly_tokens ?? null,
      tokenMonth: company.tokenMonth,
      at,
    });
    const after = (await lookupEmployeeView(tx, scope, row.id))!;
    await recordAudit(tx, {
      actor,
      action: 'create',
      entityType: ENTITY,
      entityId: row.id,
      after,
      at,
    });
    await recordEvent(tx, {
      type: 'employee.created',
      companyId: companyId,
      data: eventData(after),
      at,
    });
    return after;
  } catch (error) {
    throw duplicateError(error) ?? error;
  }
}

export async function createEmployee(
  deps: ServiceDeps,
  scope: TenantScope,
  input: CreateEmployeeBody,
  actor: AuditActor | null = null,
): Promise<Employee> {
  return inTransaction(deps.database, (tx) => createEmployeeIn(tx, deps, scope, input, actor));
}

export async function getEmployee(
  { database }: ServiceDeps,
  scope: TenantScope,
  id: number,
): Promise<Employee> {
  const employee = await lookupEmployeeView(database.db, scope, id);
  if (!employee) throw new AppError('RECORD_NOT_FOUND');
  return employee;
}

/**
 * The filtered lists' counts kept per app (decision 0065), so per database: a company's versions
 * are its database's, so two databases (the tests') never share a count. Bounded in number; each
 * is keyed by the version and the server's start (countEmployeesKept), so it is true for as long
 * as it is found.
 */
export const KEPT_COUNTS = stateSlot<EmployeeCounts>('kept employee counts');

export async function listEmployees(
  { database, state }: ServiceDeps,
  scope: TenantScope,
  query: EmployeeListQuery,
): Promise<{ data: Employee[]; total: number }> {
  return findEmployeeViews(
    database.db,
    scope,
    { companyId: query.company_id, ...pagedFilterOf(query) },
    state.of(KEPT_COUNTS, () => new LRUCache({ max: 2_000 })),
  );
}

/** A run of the scope's employees from an offset, in id order: the SCIM list (decision 0087). */
export async function listEmployeesFrom(
  { database }: ServiceDeps,
  scope: TenantScope,
  query: { offset: number; limit: number; staffNumber?: string | undefined },
): Promise<{ data: Employee[]; total: number }> {
  return findEmployeeViewsFrom(database.db, scope, query);
}

/** The employee as the API shows it, locked for the change; not found outside the scope. */
async function lockedView(tx: Tx, scope: TenantScope, id: number): Promise<Employee> {
  const row = await lookupEmployeeRow(tx, scope, id, { lock: true });
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return (await lookupEmployeeView(tx, scope, id))!;
}

/**
 * Changes an employee's staff number, name, email, status or monthly amount (the fields given).
 * Balances change only through the ledger, so they are not fields here.
 */
export async function updateEmployee(
  deps: ServiceDeps,
  scope: TenantScope,
  id: number,
  input: UpdateEmployeeBody,
  actor: AuditActor | null = null,
): Promise<Employee> {
  const body = updateEmployeeBodySchema.parse(input);
  return inTransaction(deps.database, async (tx) => {
    try {
      const before = await lockedView(tx, scope, id);
      await assertUnique(
        tx,
        before.company_id,
        {
          staffNumber: body.employee_id !== before.employee_id ? body.employee_id : undefined,
          email: body.email,
        },
        id,
      );
      const at = deps.clock.now();
      await updateEmployeeRow(tx, id, {
        ...(body.employee_id !== undefined ? { employeeId: body.employee_id } : {}),
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...(body.status !== undefined ? { status: body.status } : {}),
        ...(body.monthly_tokens !== undefined ? { monthlyTokens: body.monthly_tokens } : {}),
        at,
      });
      if (body.employee_id !== undefined && body.employee_id !== before.employee_id) {
        await relinkEmployeeAccount(
          tx,
          before.company_id,
          before.employee_id,
          body.employee_id,
          at,
        );
      }
      const after = (await lookupEmployeeView(tx, scope, id))!;
      await recordAudit(tx, {
        actor,
        action: 'update',
        entityType: ENTITY,
        entityId: id,
        before,
        after,
        at,
      });
      await recordEmployeeChange(tx, before, after, at);
      return after;
    } catch (error) {
      throw duplicateError(error) ?? error;
    }
  });
}

/**
 * Deletes an employee (decision 0008): soft, so its ledger rows and orders keep their history; it
 * becomes inactive for good (terminals refuse it) and disappears from lists and reads. Its
 * remaining balance stays in the ledger until the next reset expires it.
 */
export async function deleteEmployee(
  deps: ServiceDeps,
  scope: TenantScope,
  id: number,
  actor: AuditActor | null = null,
): Promise<void> {
  await inTransaction(deps.database, async (tx) => {
    const before = await lockedView(tx, scope, id);
    const at = deps.clock.now();
    await markEmployeeDeleted(tx, id, at);
    // Its sign-in goes with it, and every session of that sign-in ends (decision 0033).
    const accounts = await deleteEmployeeAccount(tx, before.company_id, before.employee_id, at);
    for (const userId of accounts) await revokeUserSessions(tx, userId);
    await recordAudit(tx, {
      actor,
      action: 'delete',
      entityType: ENTITY,
      entityId: id,
      before,
      at,
    });
    // Deleted is inactive for good: its integrators hear it as a deactivation (decision 0084).
    await recordEvent(tx, {
      type: 'employee.deactivated',
      companyId: before.company_id,
      data: {
        ...eventData(before),
        status: 'inactive',
        updated_at: at.toISOString(),
        changed: before.status === 'active' ? ['status'] : [],
        deleted: true,
      },
      at,
    });
  });
}

/**
 * Activates or deactivates an employee. Reactivating does not renew: an employee who missed a
 * reset stays in its old token month until renewed (TOKEN_MONTH_NOT_MATCH until then).
 */
export async function setEmployeeStatus(
  deps: ServiceDeps,
  scope: TenantScope,
  id: number,
  status: Status,
  actor: AuditActor | null = null,
): Promise<Employee> {
  return inTransaction(deps.database, async (tx) => {
    const before = await lockedView(tx, scope, id);
    const at = deps.clock.now();
    await updateEmployeeStatus(tx, id, status, at);
    const after = (await lookupEmployeeView(tx, scope, id))!;
    await recordAudit(tx, {
      actor,
      action: 'status_change',
      entityType: ENTITY,
      entityId: id,
      before,
      after,
      at,
    });
    await recordEmployeeChange(tx, before, after, at);
    return after;
  });
}

/** Renews an employee who missed a reset into the company's current token month. */
export async function renewEmployee(
  deps: ServiceDeps,
  scope: TenantScope,
  id: number,
  actorUserId: number | null,
): Promise<Employee> {
  const row = await lookupEmployeeRow(deps.database.db, scope, id);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  await inTransaction(deps.database, (tx) =>
    renewInLedger(tx, {
      companyId: row.companyId,
      employeeId: row.id,
      actorUserId,
      at: deps.clock.now(),
    }),
  );
  return getEmployee(deps, scope, id);
}
