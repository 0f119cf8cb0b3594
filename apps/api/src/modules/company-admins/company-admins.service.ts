import type { z } from 'zod';
import type {
  CompanyAdminListQuery,
  createCompanyAdminBodySchema,
  ManagedUser,
  Status,
} from '@app/contract';
import type { AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import {
  changeAccountStatus,
  createAccount,
  listAccounts,
  updateAccount,
  type AccountRules,
  type AfterCreate,
  type UpdateUserInput,
} from '../users';

/** Company admins are users of type company_admin; any other user is not found here. */
export const COMPANY_ADMIN_RULES: AccountRules = { types: ['company_admin'] };

export type CreateCompanyAdminInput = z.output<typeof createCompanyAdminBodySchema>;

export const listCompanyAdmins = (deps: ServiceDeps, query: CompanyAdminListQuery) =>
  listAccounts(deps, {
    scope: COMPANY_ADMIN_RULES,
    companyId: query.company_id,
    search: query.search || undefined,
    status: query.status,
    page: query.page,
    pageSize: query.page_size,
  });

/** The company must exist (404 RECORD_NOT_FOUND); it is fixed for the account's life. */
export const createCompanyAdmin = (
  deps: ServiceDeps,
  actor: AuditActor,
  body: CreateCompanyAdminInput,
  afterCreate?: AfterCreate,
): Promise<ManagedUser> =>
  createAccount(
    deps,
    actor,
    {
      username: body.username,
      email: body.email,
      password: body.password,
      confirmPassword: body.confirm_password,
      type: 'company_admin',
      status: body.status,
      companyId: body.company_id,
    },
    afterCreate,
  );

export const updateCompanyAdmin = (
  deps: ServiceDeps,
  actor: AuditActor,
  userId: number,
  body: UpdateUserInput,
): Promise<ManagedUser> => updateAccount(deps, actor, userId, COMPANY_ADMIN_RULES, body);

export const setCompanyAdminStatus = (
  deps: ServiceDeps,
  actor: AuditActor,
  userId: number,
  status: Status,
): Promise<ManagedUser> => changeAccountStatus(deps, actor, userId, COMPANY_ADMIN_RULES, status);
