import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { queryRows } from '../../db/client';
import { iso, toInt } from '../../lib/numbers';
import { EMPLOYEE_MONTH_TOTALS } from '../employees';

/** The live sign-in of an employee (company and staff number), if it has one. */
export async function lookupEmployeeAccount(
  executor: Executor,
  companyId: number,
  staffNumber: string,
): Promise<{ id: number } | undefined> {
  const [row] = await queryRows<{ id: unknown }>(
    executor,
    sql`SELECT u.id FROM users u
         WHERE u.type = 'company_employee' AND u.deleted_at IS NULL
           AND u.company_id = ${companyId} AND u.employee_id = ${staffNumber}
         LIMIT 1`,
  );
  return row ? { id: toInt(row.id) } : undefined;
}

export interface WalletRow {
  employeeId: number;
  staffNumber: string;
  name: string | null;
  availableTokens: number;
  tokenMonth: string;
  spentTokens: number;
  companyCode: string;
  companyName: string;
  nextResetAt: string;
}

/**
 * An employee's wallet by company and staff number (a live employee only), with its company's
 * code and next reset and what its orders took in its token month (the Employees screen's
 * `consumed_tokens`, EMPLOYEE_MONTH_TOTALS).
 */
export async function lookupWallet(
  executor: Executor,
  companyId: number,
  staffNumber: string,
): Promise<WalletRow | undefined> {
  const [row] = await queryRows<{
    id: unknown;
    employee_id: string;
    name: string | null;
    available_tokens: unknown;
    token_month: string;
    consumed: unknown;
    company_code: string;
    company_name: string;
    next_reset_at: Date | string;
  }>(
    executor,
    sql`SELECT e.id, e.employee_id, e.name, e.available_tokens, e.token_month, m.consumed,
               c.code AS company_code, c.name AS company_name, c.next_reset_at
          FROM employees e
          JOIN companies c ON c.id = e.company_id
          CROSS JOIN LATERAL (${EMPLOYEE_MONTH_TOTALS}) m
         WHERE e.company_id = ${companyId} AND e.employee_id = ${staffNumber}
           AND e.deleted_at IS NULL`,
  );
  if (!row) return undefined;
  return {
    employeeId: toInt(row.id),
    staffNumber: row.employee_id,
    name: row.name,
    availableTokens: toInt(row.available_tokens),
    tokenMonth: row.token_month,
    spentTokens: toInt(row.consumed),
    companyCode: row.company_code,
    companyName: row.company_name,
    nextResetAt: iso(row.next_reset_at),
  };
}
