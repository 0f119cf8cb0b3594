// The SCIM 2.0 User resource of an employee (RFC 7643, decision 0087), what a SCIM body says of an
// employee, the PATCH operations as Okta and Entra send them, and the discovery documents.
import { scimPatch, ScimError as PatchError, type ScimPatchOperation } from 'scim-patch';
import { parse as parseFilter, type Filter } from 'scim2-parse-filter';
import type { Employee, Status } from '@app/contract';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
/** The most resources one list answer holds (ServiceProviderConfig's filter.maxResults). */
export const SCIM_MAX_RESULTS = 100;

/** A refusal in RFC 7644 section 3.12's terms. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: string,
  ) {
    super(detail);
  }
}

export const scimErrorBody = (status: number, detail: string, scimType?: string) => ({
  schemas: [ERROR_SCHEMA],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});

export interface ScimUser {
  schemas: string[];
  id: string;
  userName: string;
  name: { formatted?: string };
  displayName?: string;
  emails: { value: string; type: string; primary: boolean }[];
  active: boolean;
  meta: { resourceType: 'User'; created: string; lastModified: string; location: string };
}

/** An employee as a SCIM User: userName the staff number, the primary work email, the name. */
export function scimUserOf(employee: Employee, baseUrl: string): ScimUser {
  return {
    schemas: [USER_SCHEMA],
    id: String(employee.id),
    userName: employee.employee_id,
    name: employee.name ? { formatted: employee.name } : {},
    ...(employee.name ? { displayName: employee.name } : {}),
    emails: employee.email ? [{ value: employee.email, type: 'work', primary: true }] : [],
    active: employee.status === 'active',
    meta: {
      resourceType: 'User',
      created: employee.created_at,
      lastModified: employee.updated_at,
      location: `${baseUrl}/Users/${employee.id}`,
    },
  };
}

/** The employee fields a SCIM User gives; `status` undefined when it does not say `active`. */
export interface EmployeeFields {
  employee_id: string;
  name: string | null;
  email: string | null;
  status: Status | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key of an object, ignoring case (SCIM attribute names are case-insensitive). */
function attribute(resource: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(resource).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : resource[key];
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** `true`, `false`, or Entra's "True" and "False" as strings. */
export function booleanOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) {
    return value.trim().toLowerCase() === 'true';
  }
  return undefined;
}

/**
 * The employee a SCIM User describes. The name (an employee has one) is the first of
 * `displayName`, `name.formatted` and `name.givenName name.familyName` that differs from the
 * current name, so a change to any of them is seen; the current name when none differs; null
 * when the User gives none. The email is the primary one, else the first.
 */
export function employeeFieldsOf(resource: unknown, currentName: string | null): EmployeeFields {
  if (!isObject(resource))
    throw new ScimError(400, 'The body must be a SCIM User.', 'invalidSyntax');
  const userName = attribute(resource, 'userName');
  if (typeof userName !== 'string' || userName.trim() === '') {
    throw new ScimError(400, 'userName (the staff number) is required.', 'invalidValue');
  }
  const name = attribute(resource, 'name');
  const parts = isObject(name) ? name : {};
  const joined = [text(attribute(parts, 'givenName')), text(attribute(parts, 'familyName'))]
    .filter(Boolean)
    .join(' ');
  const candidates = [
    text(attribute(resource, 'displayName')),
    text(attribute(parts, 'formatted')),
    text(joined),
  ].filter((c): c is string => c !== undefined);
  const changedName = candidates.find((c) => c !== currentName);
  const nextName = changedName ?? (candidates.length > 0 ? currentName : null);

  const emails = attribute(resource, 'emails');
  const list = Array.isArray(emails) ? emails.filter(isObject) : [];
  const primary = list.find((e) => booleanOf(attribute(e, 'primary')) === true) ?? list[0];
  const email = primary ? text(attribute(primary, 'value')) : undefined;

  const active = attribute(resource, 'active');
  const activeFlag = booleanOf(active);
  if (active !== undefined && activeFlag === undefined) {
    throw new ScimError(400, 'active must be true or false.', 'invalidValue');
  }
  return {
    employee_id: userName.trim(),
    name: nextName,
    email: email ?? null,
    status: activeFlag === undefined ? undefined : activeFlag ? 'active' : 'inactive',
  };
}

/**
 * PATCH operations as the library applies them: `op` in lower case (Entra sends "Replace"),
 * and `active` given as "True" or "False" (Entra's strings) made a boolean, with or without a path.
 */
export function normalisePatch(body: unknown): ScimPatchOperation[] {
  if (!isObject(body))
    throw new ScimError(400, 'The body must be a SCIM PatchOp.', 'invalidSyntax');
  const operations = attribute(body, 'Operations');
  if (!Array.isArray(operations) || operations.length === 0) {
    throw new ScimError(400, 'Operations must list at least one operation.', 'invalidSyntax');
  }
  return operations.map((operation): ScimPatchOperation => {
    if (!isObject(operation))
      throw new ScimError(400, 'Each operation must be an object.', 'invalidSyntax');
    const op = String(attribute(operation, 'op') ?? '').toLowerCase();
    const path = attribute(operation, 'path');
    let value = attribute(operation, 'value');
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      throw new ScimError(400, 'op must be add, replace or remove.', 'invalidSyntax');
    }
    if (path !== undefined && typeof path !== 'string') {
      throw new ScimError(400, 'path must be a string.', 'invalidPath');
    }
    if (typeof path === 'string' && path.trim().toLowerCase() === 'active') {
      value = booleanOf(value) ?? value;
      return { op, path: 'active', value };
    }
    if (path === undefined && isObject(value)) {
      value = Object.fromEntries(
        Object.entries(value).map(([key, item]) =>
          key.toLowerCase() === 'active' ? ['active', booleanOf(item) ?? item] : [key, item],
        ),
      );
    }
    if (op === 'remove') {
      if (typeof path !== 'string') throw new ScimError(400, 'remove needs a path.', 'noTarget');
      return { op, path, ...(value !== undefined ? { value } : {}) };
    }
    return { op, ...(typeof path === 'string' ? { path } : {}), value };
  });
}

/** The User after the operations, by the library (RFC 7644 3.5.2). */
export function applyPatch(user: ScimUser, operations: ScimPatchOperation[]): ScimUser {
  const resource = {
    ...user,
    meta: {
      ...user.meta,
      created: new Date(user.meta.created),
      lastModified: new Date(user.meta.lastModified),
    },
  };
  try {
    return scimPatch(resource, operations, {
      mutateDocument: false,
      treatMissingAsAdd: true,
    }) as unknown as ScimUser;
  } catch (error) {
    if (error instanceof PatchError) {
      throw new ScimError(400, error.message, error.scimCode ?? 'invalidValue');
    }
    throw error;
  }
}

/**
 * The staff number a list's filter asks for: `userName eq "…"` is the one filter supported (what
 * Okta and Entra send to match a user); any other is 400 invalidFilter.
 */
export function staffNumberOfFilter(filter: string | undefined): string | undefined {
  if (filter === undefined || filter.trim() === '') return undefined;
  let parsed: Filter;
  try {
    parsed = parseFilter(filter);
  } catch {
    throw new ScimError(400, 'The filter could not be read.', 'invalidFilter');
  }
  if (
    parsed.op === 'eq' &&
    'attrPath' in parsed &&
    parsed.attrPath.toLowerCase() === 'username' &&
    'compValue' in parsed &&
    typeof parsed.compValue === 'string'
  ) {
    return parsed.compValue;
  }
  throw new ScimError(400, 'Only the filter userName eq "…" is supported.', 'invalidFilter');
}

/** A list's startIndex (1-based; below 1 is 1) and count (0 to SCIM_MAX_RESULTS, default the most). */
export function pageOf(startIndex: unknown, count: unknown): { start: number; count: number } {
  const integer = (value: unknown): number | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !/^-?\d{1,9}$/.test(value)) {
      throw new ScimError(400, 'startIndex and count must be integers.', 'invalidValue');
    }
    return Number(value);
  };
  const start = Math.max(1, integer(startIndex) ?? 1);
  const size = Math.min(SCIM_MAX_RESULTS, Math.max(0, integer(count) ?? SCIM_MAX_RESULTS));
  return { start, count: size };
}

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: 'https://datatracker.ietf.org/doc/html/rfc7644',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'A company SCIM token, made on the Provisioning screen.',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

const attr = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export function userSchema(baseUrl: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id: USER_SCHEMA,
    name: 'User',
    description: 'An employee: userName is the staff number.',
    attributes: [
      attr('userName', { required: true, caseExact: true, uniqueness: 'server' }),
      attr('name', {
        type: 'complex',
        subAttributes: [attr('formatted'), attr('givenName'), attr('familyName')],
      }),
      attr('displayName'),
      attr('emails', {
        type: 'complex',
        multiValued: true,
        subAttributes: [attr('value'), attr('type'), attr('primary', { type: 'boolean' })],
      }),
      attr('active', { type: 'boolean' }),
    ],
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${USER_SCHEMA}` },
  };
}

export function userResourceType(baseUrl: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'The company’s employees.',
    schema: USER_SCHEMA,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
  };
}

export const listResponse = (resources: unknown[], total: number, start: number) => ({
  schemas: [LIST_SCHEMA],
  totalResults: total,
  startIndex: start,
  itemsPerPage: resources.length,
  Resources: resources,
});
