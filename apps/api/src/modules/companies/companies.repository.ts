import { and, count, desc, eq, ilike, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Company, CompanySort, SortOrder, Status } from '@app/contract';
import { queryRows, type Executor, type Tx } from '../../db/client';
import { companies } from '../../db/schema';
import type { TenantScope } from '../../lib/scope';
import { iso, toInt } from '../../lib/numbers';
import { likePattern, sortedBy } from '../../lib/sql';
import type { CompanyRow } from '../../db/schema';

/**
 * The companies a scope may see, as a condition inside the query (DESIGN 2): every one for admin
 * and Group HR, its own for a company admin or an employee, none for merchants. `id` is the
 * company id column of the query (`companies.id`, or `c.id` under an alias); the reports and the
 * dashboard read companies through this too.
 */
export function companyScope(
  scope: TenantScope,
  id: SQL | typeof companies.id = companies.id,
): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'company':
    case 'self':
      return sql`${id} = ${scope.companyId}`;
    case 'merchant':
      return sql`false`;
  }
}

export function toCompany(row: CompanyRow): Company {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    status: row.status as Status,
    monthly_reset_day: row.monthlyResetDay,
    init_token: row.initToken,
    init_token_next_month: row.initTokenNextMonth,
    employee_monthly_tokens: row.employeeMonthlyTokens,
    token_balance: row.tokenBalance,
    token_month: row.tokenMonth,
    next_reset_at: iso(row.nextResetAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    pay_code_required: row.payCodeRequired,
  };
}

export async function insertCompany(
  tx: Tx,
  values: {
    code: string;
    name: string;
    status: Status;
    monthlyResetDay: number;
    initToken: number;
    employeeMonthlyTokens: number;
    tokenMonth: string;
    nextResetAt: Date;
    at: Date;
  },
): Promise<CompanyRow> {
  const { at, ...rest } = values;
  const [row] = await tx
    .insert(companies)
    .values({ ...rest, createdAt: at, updatedAt: at })
    .returning();
  return row!;
}

export async function lookupCompany(
  executor: Executor,
  scope: TenantScope,
  id: number,
): Promise<CompanyRow | undefined> {
  const [row] = await executor
    .select()
    .from(companies)
    .where(and(eq(companies.id, id), companyScope(scope)));
  return row;
}

/** Locks a company row against resets and distributions while, e.g., an employee joins it. */
export async function shareLockCompany(
  tx: Tx,
  scope: TenantScope,
  id: number,
): Promise<CompanyRow | undefined> {
  const [row] = await tx
    .select()
    .from(companies)
    .where(and(eq(companies.id, id), companyScope(scope)))
    .for('share');
  return row;
}

/** The columns the companies list sorts by (lower-cased text, so case does not split names). */
const COMPANY_SORT_COLUMNS: Record<CompanySort, SQLWrapper> = {
  code: sql`lower(${companies.code})`,
  name: sql`lower(${companies.name})`,
  status: companies.status,
  monthly_reset_day: companies.monthlyResetDay,
  init_token: companies.initToken,
  token_balance: companies.tokenBalance,
  created_at: companies.createdAt,
};

export async function findCompanies(
  executor: Executor,
  scope: TenantScope,
  query: {
    status?: Status | undefined;
    search?: string | undefined;
    page: number;
    pageSize: number;
    sort?: CompanySort | undefined;
    order?: SortOrder | undefined;
  },
): Promise<{ rows: CompanyRow[]; total: number }> {
  const pattern = query.search ? likePattern(query.search) : undefined;
  const where = and(
    companyScope(scope),
    query.status ? eq(companies.status, query.status) : undefined,
    pattern ? or(ilike(companies.code, pattern), ilike(companies.name, pattern)) : undefined,
  );
  const rows = await executor
    .select()
    .from(companies)
    .where(where)
    .orderBy(
      ...(query.sort
        ? sortedBy(COMPANY_SORT_COLUMNS[query.sort], companies.id, query.order ?? 'asc')
        : [desc(companies.id)]),
    )
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await executor.select({ n: count() }).from(companies).where(where);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function updateCompany(
  executor: Executor,
  scope: TenantScope,
  id: number,
  values: Partial<
    Pick<
      CompanyRow,
      | 'name'
      | 'status'
      | 'monthlyResetDay'
      | 'initToken'
      | 'initTokenNextMonth'
      | 'employeeMonthlyTokens'
      | 'nextResetAt'
      | 'payCodeRequired'
    >
  > & { updatedAt: Date },
): Promise<CompanyRow | undefined> {
  const [row] = await executor
    .update(companies)
    .set(values)
    .where(and(eq(companies.id, id), companyScope(scope)))
    .returning();
  return row;
}

/** How many company admins (users of type company_admin) each of these companies has. */
export async function countCompanyAdmins(
  executor: Executor,
  companyIds: number[],
): Promise<Map<number, number>> {
  if (companyIds.length === 0) return new Map();
  const rows = await queryRows<{ company_id: unknown; n: unknown }>(
    executor,
    sql`SELECT company_id, count(*) AS n FROM users
         WHERE type = 'company_admin' AND company_id = ANY(${sql.param(companyIds)}::bigint[])
         GROUP BY company_id`,
  );
  return new Map(rows.map((row) => [toInt(row.company_id), toInt(row.n)]));
}
