import { sql } from 'drizzle-orm';
import type { Status } from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import { toInt } from '../../lib/numbers';

export interface RewardableEmployee {
  id: number;
  employee_id: string;
  name: string | null;
  status: Status;
}

/** The live (not deleted) employees of a company that these staff numbers name. */
export async function findEmployeesByStaffNumbers(
  executor: Executor,
  companyId: number,
  staffNumbers: string[],
): Promise<RewardableEmployee[]> {
  if (staffNumbers.length === 0) return [];
  const rows = await queryRows<Record<string, unknown>>(
    executor,
    sql`SELECT id, employee_id, name, status FROM employees
         WHERE company_id = ${companyId} AND deleted_at IS NULL
           AND employee_id = ANY(${sql.param(staffNumbers)}::text[])`,
  );
  return rows.map((r) => ({
    id: toInt(r.id),
    employee_id: r.employee_id as string,
    name: r.name as string | null,
    status: r.status as Status,
  }));
}
