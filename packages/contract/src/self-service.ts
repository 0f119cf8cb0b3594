import { z } from 'zod';
import {
  orderDeclineSchema,
  spendingExceptionSchema,
  spendingRuleVersionSchema,
} from './spending-rules';
import { passwordSchema, usernameSchema } from './validation';

/**
 * Employee self-service (DESIGN 6, decision 0033). A company admin gives one of its employees a
 * sign-in: a `company_employee` user linked to the employee by company and staff number.
 */
export const createEmployeeAccountBodySchema = z.strictObject({
  username: usernameSchema,
  password: passwordSchema,
  /** Optional repeat of the password; when sent it must match (PASSWORD_NOT_MATCH). */
  confirm_password: z.string().max(256).optional(),
});
export type CreateEmployeeAccountBody = z.input<typeof createEmployeeAccountBodySchema>;

/** The sign-in POST /employees/{id}/account created. */
export const employeeAccountSchema = z.object({
  user_id: z.number().int(),
  username: z.string(),
  type: z.literal('company_employee'),
  status: z.enum(['active', 'inactive']),
  company_id: z.number().int(),
  /** Our id of the employee the sign-in belongs to. */
  employee: z.number().int(),
  /** The company's staff number of that employee. */
  employee_id: z.string(),
  created_at: z.string(),
});
export type EmployeeAccount = z.infer<typeof employeeAccountSchema>;

const tokens = z.number().int();

/**
 * GET /me/wallet: the signed-in employee's own wallet. The whole balance expires at the next
 * reset (DESIGN 3.5), so `expiring_tokens` is the balance; `spent_tokens` is what its orders took
 * in the current token month less what was refunded in it. `company_code` and `employee_id` (the
 * staff number) are what a terminal identifies the employee by: the pay code.
 */
export const walletSchema = z.object({
  available_tokens: tokens,
  token_month: z.string(),
  next_reset_at: z.string(),
  expiring_tokens: tokens,
  spent_tokens: tokens,
  company_code: z.string(),
  company_name: z.string(),
  employee_id: z.string(),
  name: z.string().nullable(),
  /** DESIGN 7: what the employee may still spend today; null when no daily limit is in force. */
  remaining_today: tokens.nullable().optional(),
  /** The company's rules in force today (null: none), and the employee's exception to them. */
  spending_rules: spendingRuleVersionSchema.nullable().optional(),
  spending_exception: spendingExceptionSchema.nullable().optional(),
  /** Its last 10 declined orders, with their reasons. */
  declines: z.array(orderDeclineSchema).optional(),
});
export type Wallet = z.infer<typeof walletSchema>;

/**
 * The pay code a till scans (decision 0033): `<company code>:<staff number>`. A company code is
 * letters and digits only, so the first colon always separates the two.
 */
export const payCodeOf = (wallet: Pick<Wallet, 'company_code' | 'employee_id'>): string =>
  `${wallet.company_code}:${wallet.employee_id}`;

/** A scanned pay code as the terminal order's `company_code` and `employee_id`; null if malformed. */
export function parsePayCode(code: string): { company_code: string; employee_id: string } | null {
  const at = code.indexOf(':');
  if (at <= 0 || at === code.length - 1) return null;
  const company = code.slice(0, at);
  if (!/^[A-Za-z0-9]+$/.test(company)) return null;
  return { company_code: company, employee_id: code.slice(at + 1) };
}
