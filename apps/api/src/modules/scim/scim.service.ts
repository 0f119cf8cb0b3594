import crypto from 'node:crypto';
import type {
  CreateScimTokenBody,
  Employee,
  ScimRequest,
  ScimToken,
  ScimTokenCreated,
} from '@app/contract';
import {
  createEmployeeBodySchema,
  createScimTokenBodySchema,
  updateEmployeeBodySchema,
} from '@app/contract';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import type { TenantScope } from '../../lib/scope';
import { inTransaction } from '../../lib/transaction';
import { lookupCompany } from '../companies';
import {
  createEmployee,
  getEmployee,
  listEmployeesFrom,
  setEmployeeStatus,
  updateEmployee,
} from '../employees';
import {
  applyPatch,
  employeeFieldsOf,
  listResponse,
  normalisePatch,
  pageOf,
  ScimError,
  scimUserOf,
  staffNumberOfFilter,
  type EmployeeFields,
  type ScimUser,
} from './scim-resource';
import {
  findScimRequests,
  findScimTokens,
  insertScimRequest,
  insertScimToken,
  revokeScimToken,
  useScimToken,
} from './scim.repository';

/** A SCIM token: `scim_` and 32 random bytes in base64url. Only its SHA-256 is stored. */
const TOKEN_PREFIX = 'scim_';
const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** The company a token request names, if the caller's scope may see it; else 404. */
async function companyOf(
  executor: Executor,
  scope: TenantScope,
  companyId: number,
): Promise<number> {
  if (scope.kind === 'company' && scope.companyId !== companyId) {
    throw new AppError('RECORD_NOT_FOUND');
  }
  if (scope.kind !== 'company' && scope.kind !== 'all') throw new AppError('RECORD_NOT_FOUND');
  if (!(await lookupCompany(executor, scope, companyId))) throw new AppError('RECORD_NOT_FOUND');
  return companyId;
}

/** Makes a token for a company: the answer is the only time the token is seen. Audited. */
export async function createScimToken(
  deps: ServiceDeps,
  scope: TenantScope,
  companyId: number,
  input: CreateScimTokenBody,
  actor: AuditActor,
): Promise<ScimTokenCreated> {
  const body = createScimTokenBodySchema.parse(input);
  return inTransaction(deps.database, async (tx) => {
    await companyOf(tx, scope, companyId);
    const token = TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
    const at = deps.clock.now();
    const created = await insertScimToken(tx, {
      companyId,
      description: body.description,
      tokenHash: hashToken(token),
      prefix: token.slice(0, TOKEN_PREFIX.length + 6),
      createdBy: actor.userId,
      at,
    });
    await recordAudit(tx, {
      actor,
      action: 'create',
      entityType: 'scim_token',
      entityId: created.id,
      after: created,
      at,
    });
    return { ...created, token };
  });
}

export async function listScimTokens(
  deps: ServiceDeps,
  scope: TenantScope,
  companyId: number,
): Promise<ScimToken[]> {
  await companyOf(deps.database.db, scope, companyId);
  return findScimTokens(deps.database.db, companyId);
}

/** Revokes a token: its next request is 401. Audited; an unknown or revoked one is 404. */
export async function revokeScimTokenOf(
  deps: ServiceDeps,
  scope: TenantScope,
  companyId: number,
  tokenId: number,
  actor: AuditActor,
): Promise<void> {
  await inTransaction(deps.database, async (tx) => {
    await companyOf(tx, scope, companyId);
    const at = deps.clock.now();
    const revoked = await revokeScimToken(tx, companyId, tokenId, at);
    if (!revoked) throw new AppError('RECORD_NOT_FOUND');
    await recordAudit(tx, {
      actor,
      action: 'revoke',
      entityType: 'scim_token',
      entityId: tokenId,
      before: revoked,
      at,
    });
  });
}

export async function listScimRequests(
  deps: ServiceDeps,
  scope: TenantScope,
  companyId: number,
): Promise<ScimRequest[]> {
  await companyOf(deps.database.db, scope, companyId);
  return findScimRequests(deps.database.db, companyId);
}

/** Who a SCIM request is: its token and the token's company. */
export interface ScimClient {
  tokenId: number;
  companyId: number;
}

/** The client of an `Authorization: Bearer scim_…` header; 401 for anything else. */
export async function authenticateScim(
  deps: ServiceDeps,
  authorization: string | undefined,
): Promise<ScimClient> {
  const match = /^Bearer\s+(\S{1,200})\s*$/i.exec(authorization ?? '');
  if (!match) throw new ScimError(401, 'A bearer token is required.');
  const used = await useScimToken(deps.database.db, hashToken(match[1]!), deps.clock.now());
  if (!used) throw new ScimError(401, 'The bearer token is not valid.');
  return { tokenId: used.id, companyId: used.companyId };
}

export async function recordScimRequest(
  deps: ServiceDeps,
  client: ScimClient,
  request: { method: string; path: string; status: number },
): Promise<void> {
  await insertScimRequest(deps.database.db, {
    ...client,
    ...request,
    at: deps.clock.now(),
  });
}

const scopeOfClient = (client: ScimClient): TenantScope => ({
  kind: 'company',
  companyId: client.companyId,
});

/** A SCIM id: our employee id, digits only; anything else is not found. */
function employeeIdOf(id: string): number {
  if (!/^\d{1,15}$/.test(id) || Number(id) < 1) throw new AppError('RECORD_NOT_FOUND');
  return Number(id);
}

/** The fields' values checked by the employee forms' own rules, as a SCIM 400. */
function checked<T>(
  schema: {
    safeParse(v: unknown): {
      success: boolean;
      error?: { issues: { path: PropertyKey[]; message: string }[] };
    };
  },
  value: T,
): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error!.issues[0]!;
    throw new AppError('BODY_INVALID', {
      metadata: { [issue.path.map(String).join('.') || '_root']: issue.message },
    });
  }
  return value;
}

export async function listScimUsers(
  deps: ServiceDeps,
  client: ScimClient,
  baseUrl: string,
  query: { filter?: unknown; startIndex?: unknown; count?: unknown },
) {
  const filter = typeof query.filter === 'string' ? query.filter : undefined;
  if (query.filter !== undefined && filter === undefined) {
    throw new ScimError(400, 'Give one filter.', 'invalidFilter');
  }
  const staffNumber = staffNumberOfFilter(filter);
  const { start, count } = pageOf(query.startIndex, query.count);
  const page = await listEmployeesFrom(deps, scopeOfClient(client), {
    offset: start - 1,
    limit: count,
    staffNumber,
  });
  return listResponse(
    page.data.map((e) => scimUserOf(e, baseUrl)),
    page.total,
    start,
  );
}

export async function getScimUser(
  deps: ServiceDeps,
  client: ScimClient,
  baseUrl: string,
  id: string,
): Promise<ScimUser> {
  return scimUserOf(await getEmployee(deps, scopeOfClient(client), employeeIdOf(id)), baseUrl);
}

/**
 * Creates the employee a SCIM User describes through the employees service (the create form's
 * rules, its audit row and its webhook event).
 */
export async function createScimUser(
  deps: ServiceDeps,
  client: ScimClient,
  baseUrl: string,
  body: unknown,
  actor: AuditActor,
): Promise<ScimUser> {
  const fields = employeeFieldsOf(body, null);
  const input = checked(createEmployeeBodySchema, {
    employee_id: fields.employee_id,
    ...(fields.name ? { name: fields.name } : {}),
    ...(fields.email ? { email: fields.email } : {}),
    status: fields.status ?? 'active',
  });
  const employee = await createEmployee(deps, scopeOfClient(client), input, actor);
  return scimUserOf(employee, baseUrl);
}

/**
 * Makes the employee what `fields` say, as the back office would: nothing when nothing changes, a
 * status change alone as the status switch does (audit `status_change`), anything else as the edit
 * form does (audit `update`), through the employees service.
 */
async function applyFields(
  deps: ServiceDeps,
  client: ScimClient,
  before: Employee,
  fields: EmployeeFields,
  actor: AuditActor,
): Promise<Employee> {
  const scope = scopeOfClient(client);
  const changes = {
    ...(fields.employee_id !== before.employee_id ? { employee_id: fields.employee_id } : {}),
    ...(fields.name !== before.name ? { name: fields.name } : {}),
    ...(fields.email !== before.email ? { email: fields.email } : {}),
  };
  const status =
    fields.status !== undefined && fields.status !== before.status ? fields.status : undefined;
  if (Object.keys(changes).length === 0) {
    if (status === undefined) return before;
    return setEmployeeStatus(deps, scope, before.id, status, actor);
  }
  const input = checked(updateEmployeeBodySchema, {
    ...changes,
    ...(status !== undefined ? { status } : {}),
  });
  return updateEmployee(deps, scope, before.id, input, actor);
}

/** PUT: the User replaces the employee's staff number, name, email and (when given) status. */
export async function replaceScimUser(
  deps: ServiceDeps,
  client: ScimClient,
  baseUrl: string,
  id: string,
  body: unknown,
  actor: AuditActor,
): Promise<ScimUser> {
  const before = await getEmployee(deps, scopeOfClient(client), employeeIdOf(id));
  const fields = employeeFieldsOf(body, before.name);
  return scimUserOf(await applyFields(deps, client, before, fields, actor), baseUrl);
}

/** PATCH: the operations applied to the User as it is, then the result saved as PUT saves it. */
export async function patchScimUser(
  deps: ServiceDeps,
  client: ScimClient,
  baseUrl: string,
  id: string,
  body: unknown,
  actor: AuditActor,
): Promise<ScimUser> {
  const before = await getEmployee(deps, scopeOfClient(client), employeeIdOf(id));
  const operations = normalisePatch(body);
  const patched = applyPatch(scimUserOf(before, baseUrl), operations);
  const fields = employeeFieldsOf(patched, before.name);
  return scimUserOf(await applyFields(deps, client, before, fields, actor), baseUrl);
}

/**
 * DELETE deactivates (decision 0087): the employee stays, inactive, with its history, and a
 * later assignment finds it by userName and activates it again.
 */
export async function deleteScimUser(
  deps: ServiceDeps,
  client: ScimClient,
  id: string,
  actor: AuditActor,
): Promise<void> {
  const before = await getEmployee(deps, scopeOfClient(client), employeeIdOf(id));
  if (before.status !== 'inactive') {
    await setEmployeeStatus(deps, scopeOfClient(client), before.id, 'inactive', actor);
  }
}
