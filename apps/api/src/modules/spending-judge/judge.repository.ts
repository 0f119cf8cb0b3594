// The spending judge's reads from TypeScript (sql/rules.sql): the preview of a candidate rule set
// and what an employee may still spend today.
import { sql } from 'drizzle-orm';
import type { SpendingRules } from '@app/contract';
import { queryRows, type Executor } from '../../db/client';

/** spending_preview (sql/rules.sql): the candidate replayed over [from, to). */
export async function previewRules(
  executor: Executor,
  companyId: number,
  rules: SpendingRules,
  timeZone: string,
  from: Date,
  to: Date,
): Promise<unknown> {
  const [row] = await queryRows<{ preview: unknown }>(
    executor,
    sql`SELECT spending_preview(${companyId}, ${JSON.stringify(rules)}::jsonb, ${timeZone},
          ${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz) AS preview`,
  );
  return row!.preview;
}

/** What the employee may still spend today (null: no daily limit in force). */
export async function remainingToday(
  executor: Executor,
  employeeId: number,
  timeZone: string,
  at: Date,
): Promise<number | null> {
  const [row] = await queryRows<{ remaining: string | null }>(
    executor,
    sql`SELECT spending_remaining_today(${employeeId}, ${timeZone}, ${at.toISOString()}::timestamptz) AS remaining`,
  );
  return row?.remaining == null ? null : Number(row.remaining);
}
