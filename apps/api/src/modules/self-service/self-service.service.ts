import type { CreateEmployeeAccountBody, EmployeeAccount, Wallet } from '@app/contract';
import { createEmployeeAccountBodySchema } from '@app/contract';
import { AppError, isAppError } from '../../lib/app-error';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import type { TenantScope } from '../../lib/scope';
import { inTransaction } from '../../lib/transaction';
import { lookupEmployeeRow } from '../employees';
import { recordUserLink } from '../iam';
import { createUserAccount } from '../iam';
import { walletSpending } from '../spending-rules';
import { lookupEmployeeAccount, lookupWallet } from './self-service.repository';

/** The audit log's name for every user account (users.service's USER_ENTITY). */
const USER_ENTITY = 'user';

/**
 * POST /employees/{id}/account (decision 0033): gives an employee of the caller's company its
 * sign-in, a `company_employee` user linked by company and staff number. One per employee: the
 * employee row is locked first, so two requests at once cannot both create one (the second finds
 * the first's and answers 409 EMPLOYEE_ACCOUNT_EXISTS). Another company's employee is 404.
 */
export async function createEmployeeAccount(
  { database, clock }: ServiceDeps,
  scope: TenantScope,
  id: number,
  input: CreateEmployeeAccountBody,
  actor: AuditActor,
): Promise<EmployeeAccount> {
  const body = createEmployeeAccountBodySchema.parse(input);
  if (body.confirm_password !== undefined && body.confirm_password !== body.password) {
    throw new AppError('PASSWORD_NOT_MATCH', {
      metadata: { confirm_password: 'v.password_match' },
    });
  }
  try {
    return await inTransaction(database, async (tx) => {
      const employee = await lookupEmployeeRow(tx, scope, id, { lock: true });
      if (!employee) throw new AppError('RECORD_NOT_FOUND');
      if (await lookupEmployeeAccount(tx, employee.companyId, employee.employeeId)) {
        throw new AppError('EMPLOYEE_ACCOUNT_EXISTS');
      }
      const user = await createUserAccount(tx, {
        username: body.username,
        email: null,
        password: body.password,
        type: 'company_employee',
        status: 'active',
        companyId: employee.companyId,
        employeeId: employee.employeeId,
      });
      const at = clock.now();
      const account: EmployeeAccount = {
        user_id: user.id,
        username: user.username,
        type: 'company_employee',
        status: user.status,
        company_id: employee.companyId,
        employee: employee.id,
        employee_id: employee.employeeId,
        created_at: at.toISOString(),
      };
      await recordUserLink(tx, {
        actorUserId: actor.userId,
        targetUserId: user.id,
        kind: 'created',
        at,
      });
      await recordAudit(tx, {
        actor,
        action: 'create',
        entityType: USER_ENTITY,
        entityId: user.id,
        after: account,
        at,
      });
      return account;
    });
  } catch (error) {
    // The catalogue's code of the account forms (POST /users answers the same).
    if (isAppError(error) && error.code === 'USERNAME_ALREADY_EXISTS') {
      throw new AppError('USERNAME_EXISTS', { cause: error });
    }
    throw error;
  }
}

/**
 * GET /me/wallet: the signed-in employee's own wallet (the `self` scope). The whole balance
 * expires at the company's next reset (DESIGN 3.5). A sign-in whose employee is gone is 404.
 */
export async function getOwnWallet(deps: ServiceDeps, scope: TenantScope): Promise<Wallet> {
  if (scope.kind !== 'self') throw new AppError('PERMISSION_DENIED');
  const row = await lookupWallet(deps.database.db, scope.companyId, scope.employeeId);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  // DESIGN 7: what it may still spend today, its rules and its recent declines.
  const spending = await walletSpending(deps, scope, {
    id: row.employeeId,
    companyId: scope.companyId,
  });
  return {
    ...spending,
    available_tokens: row.availableTokens,
    token_month: row.tokenMonth,
    next_reset_at: row.nextResetAt,
    expiring_tokens: row.availableTokens,
    spent_tokens: row.spentTokens,
    company_code: row.companyCode,
    company_name: row.companyName,
    employee_id: row.staffNumber,
    name: row.name,
  };
}
