import { sql, type SQL } from 'drizzle-orm';
import type { Status } from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import { iso, toInt, toIntOrNull } from '../../lib/numbers';
import type { TenantScope } from '../../lib/scope';
import { EMPLOYEE_MONTH_TOTALS } from '../employees/employees.repository';

/** The employees a scope may see, on the alias `e` (as the employees list applies it). */
function employeeScope(scope: TenantScope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'company':
      return sql`e.company_id = ${scope.companyId}`;
    case 'self':
      return sql`e.company_id = ${scope.companyId} AND e.employee_id = ${scope.employeeId}`;
    case 'merchant':
      return sql`false`;
  }
}

export interface EmployeeExportFilter {
  companyId?: number | undefined;
  status?: Status | undefined;
}

function employeesWhere(scope: TenantScope, f: EmployeeExportFilter): SQL {
  // Deleted employees are left out, as from the employees list (decision 0008).
  const where: SQL[] = [employeeScope(scope), sql`e.deleted_at IS NULL`];
  if (f.companyId !== undefined) where.push(sql`e.company_id = ${f.companyId}`);
  if (f.status) where.push(sql`e.status = ${f.status}`);
  return sql.join(where, sql` AND `);
}

/** An employee as the employees list shows it (issued and consumed in its current token month). */
export interface EmployeeExportRow {
  id: number;
  company_id: number;
  company_code: string;
  employee_id: string;
  name: string | null;
  email: string | null;
  status: Status;
  token_month: string;
  available_tokens: number;
  issued_tokens: number;
  consumed_tokens: number;
  monthly_tokens: number | null;
  created_at: string;
}

/**
 * The next batch of employees after our id `afterId`, in the employees list's order (by id), with
 * the list's issued and consumed tokens of the current token month.
 */
export async function findEmployeeExportBatch(
  executor: Executor,
  scope: TenantScope,
  f: EmployeeExportFilter,
  afterId: number | undefined,
  limit: number,
): Promise<EmployeeExportRow[]> {
  const rows = await queryRows<Record<string, unknown>>(
    executor,
    sql`SELECT e.id, e.company_id, c.code AS company_code, e.employee_id, e.name, e.email,
               e.status, e.token_month, e.available_tokens, e.monthly_tokens, e.created_at,
               m.issued, m.consumed
          FROM employees e
          JOIN companies c ON c.id = e.company_id
          -- the same month totals as the employees list
          CROSS JOIN LATERAL (${EMPLOYEE_MONTH_TOTALS}) m
         WHERE ${employeesWhere(scope, f)}
           ${afterId !== undefined ? sql`AND e.id > ${afterId}` : sql``}
         ORDER BY e.id
         LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    id: toInt(r.id),
    company_id: toInt(r.company_id),
    company_code: r.company_code as string,
    employee_id: r.employee_id as string,
    name: r.name as string | null,
    email: r.email as string | null,
    status: r.status as Status,
    token_month: r.token_month as string,
    available_tokens: toInt(r.available_tokens),
    issued_tokens: toInt(r.issued),
    consumed_tokens: toInt(r.consumed),
    monthly_tokens: toIntOrNull(r.monthly_tokens),
    created_at: iso(r.created_at as Date | string),
  }));
}

/** How many employees the export holds, counting no further than `max`. */
export async function countEmployeesUpTo(
  executor: Executor,
  scope: TenantScope,
  f: EmployeeExportFilter,
  max: number,
): Promise<number> {
  const [row] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*) AS n FROM (
          SELECT 1 FROM employees e WHERE ${employeesWhere(scope, f)} LIMIT ${max}
        ) capped`,
  );
  return toInt(row?.n ?? 0);
}
