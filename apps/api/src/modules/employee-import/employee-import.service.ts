import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import {
  EMPLOYEE_IMPORT_MAX_ROWS,
  type EmployeeImportOptions,
  type EmployeeImportPreview,
  type EmployeeImportResult,
  type EmployeeImportRow,
  type EmployeeImportSummary,
  type Status,
} from '@app/contract';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { stateSlot } from '../../lib/app-state';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import { countedJob } from '../../lib/metrics';
import type { TenantScope } from '../../lib/scope';
import { inTransaction } from '../../lib/transaction';
import { shareLockCompany } from '../companies';
import { emailDuplicateError } from '../employees';
import { isEventWanted } from '../webhooks';
import { parseEmployeeCsv, type ParsedEmployeeRow } from './employee-import.csv';
import {
  deferSearchIndexMerge,
  findCompanyEmployeesForImport,
  findEmailsUsedElsewhere,
  insertImportedEmployees,
  lockCompanyImports,
  mergeSearchIndexEntries,
  updateImportedEmployees,
  type ImportExistingEmployee,
} from './employee-import.repository';

/**
 * Files parsed by a preview, by the SHA-256 of their bytes (decision 0056): the screen previews a
 * file, then imports the same bytes, and the import takes the preview's rows instead of parsing
 * the file again (a quarter of a second and 100,000 rows' garbage for the largest file). The rows
 * depend on the bytes alone, never on who sent them, and no one changes them. At most two of the
 * largest files are held, each for five minutes or until its import takes it; an instance that did
 * not see the preview parses the file itself.
 */
export const PREVIEWED_FILES = stateSlot<LRUCache<string, ParsedEmployeeRow[]>>('previewed files');

const previewedFiles = ({ state }: Pick<ServiceDeps, 'state'>) =>
  state.of(
    PREVIEWED_FILES,
    () =>
      new LRUCache<string, ParsedEmployeeRow[]>({
        maxSize: 2 * EMPLOYEE_IMPORT_MAX_ROWS,
        sizeCalculation: (rows) => Math.max(1, rows.length),
        ttl: 5 * 60_000,
      }),
  );

const fileKey = (file: Buffer) => createHash('sha256').update(file).digest('base64');

/**
 * The merge of the search index's pending entries after an import (decision 0066), one at a time
 * per app: `last` is the last one queued, which settles when the merges queued so far have run
 * (tests await it). A merge that fails (a role that does not own the index, a database going away)
 * is counted in `jobs_runs_total`; the entries stay pending, where searches still find them, until
 * the next insert past the default 4 MB list or a vacuum.
 */
export const SEARCH_INDEX_MERGES = stateSlot<{ last: Promise<void> }>('search index merges');

function queueSearchIndexMerge({ database, metrics, state }: ServiceDeps): void {
  const merges = state.of(SEARCH_INDEX_MERGES, () => ({ last: Promise.resolve() }));
  merges.last = merges.last
    .then(() =>
      countedJob(metrics, 'search_index_merge', () => mergeSearchIndexEntries(database.db)),
    )
    .then(
      () => undefined,
      () => undefined,
    );
}

/** Imports act on the company admin's own company (only company admins hold employees.import). */
function importCompany(scope: TenantScope): number {
  if (scope.kind !== 'company') throw new AppError('PERMISSION_DENIED');
  return scope.companyId;
}

/** The staff number of the template's example row: a row that names it is refused. */
export const TEMPLATE_EXAMPLE_STAFF_NUMBER = 'EXAMPLE-DELETE-ME';

/**
 * Decides what each row does (decision 0008), checking the file against itself and the database:
 * a staff number or email seen on an earlier line is `v.duplicate_in_file`; the template's example
 * row is `v.template_example`, whatever a company's staff numbers are; a staff number of a
 * deleted employee, or an email of another employee of this company or of another company, is
 * invalid with the duplicate code the create form would get. A row naming an existing employee
 * is `unchanged` when applying it would change nothing (an empty cell keeps the current value),
 * `deactivate` when it turns an active employee inactive, `override` otherwise. Existing active
 * employees the file does not name (on any line, valid or not) are listed: `deactivate` only when
 * the admin opted in, `keep` otherwise (decision 0020).
 */
export function classifyRows(
  parsed: ParsedEmployeeRow[],
  existing: ImportExistingEmployee[],
  emailsElsewhere: Set<string>,
  deactivateMissing = false,
): EmployeeImportRow[] {
  const byStaffNumber = new Map(existing.map((e) => [e.employee_id, e]));
  const liveByEmail = new Map(
    existing.filter((e) => !e.deleted && e.email).map((e) => [e.email!.toLowerCase(), e]),
  );
  const seenStaffNumbers = new Set<string>();
  const seenEmails = new Set<string>();
  const rows: EmployeeImportRow[] = new Array<EmployeeImportRow>(parsed.length);
  // A plain loop, and a row's errors copied only when one is added: this runs for every row of
  // a 100,000-row file, twice (preview, then import).
  for (let i = 0; i < parsed.length; i += 1) {
    const row = parsed[i]!;
    let errors: Record<string, string> | undefined;
    const fail = (field: string, code: string) => {
      errors ??= { ...row.errors };
      errors[field] ??= code;
    };
    const current = byStaffNumber.get(row.employee_id);
    if (row.employee_id !== '') {
      if (seenStaffNumbers.has(row.employee_id)) fail('employee_id', 'v.duplicate_in_file');
      seenStaffNumbers.add(row.employee_id);
    }
    if (current?.deleted) fail('employee_id', 'EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY');
    if (row.employee_id === TEMPLATE_EXAMPLE_STAFF_NUMBER)
      fail('employee_id', 'v.template_example');
    if (row.email && !row.errors.email) {
      const email = row.email.toLowerCase();
      const holder = liveByEmail.get(email);
      if (seenEmails.has(email)) fail('email', 'v.duplicate_in_file');
      else if (emailsElsewhere.has(email)) fail('email', 'EMAIL_EXISTING_IN_OTHER_COMPANY');
      else if (holder && holder.employee_id !== row.employee_id) {
        fail('email', 'EMAIL_EXISTING_IN_THIS_COMPANY');
      }
      seenEmails.add(email);
    }
    const found = errors ?? row.errors;
    const isInvalid = errors !== undefined || hasAny(row.errors);
    const live = current && !current.deleted ? current : undefined;
    const classified: EmployeeImportRow = {
      line: row.line,
      id: isInvalid ? null : (live?.id ?? null),
      employee_id: row.employee_id,
      email: row.email,
      name: row.name,
      status: row.status,
      action: isInvalid ? 'invalid' : !live ? 'create' : existingAction(live, row),
    };
    if (isInvalid) classified.errors = found;
    rows[i] = classified;
  }
  for (const employee of existing) {
    if (employee.deleted || employee.status !== 'active') continue;
    if (seenStaffNumbers.has(employee.employee_id)) continue;
    rows.push({
      line: null,
      id: employee.id,
      employee_id: employee.employee_id,
      email: employee.email,
      name: employee.name,
      status: deactivateMissing ? 'inactive' : employee.status,
      action: deactivateMissing ? 'deactivate' : 'keep',
    });
  }
  return rows;
}

function hasAny(record: Readonly<Record<string, string>>): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true;
  return false;
}

/**
 * What a valid row does to the live employee it names. It mirrors the UPDATE of
 * updateImportedEmployees (an empty cell keeps the current value; values compare exactly), so the
 * counts say what the database will do.
 */
function existingAction(
  current: ImportExistingEmployee,
  row: ParsedEmployeeRow,
): 'override' | 'unchanged' | 'deactivate' {
  const email = row.email ?? current.email;
  const name = row.name ?? current.name;
  if (email === current.email && name === current.name && row.status === current.status) {
    return 'unchanged';
  }
  return current.status === 'active' && row.status === 'inactive' ? 'deactivate' : 'override';
}

function summarise(rows: EmployeeImportRow[]): EmployeeImportSummary {
  const summary: EmployeeImportSummary = {
    create: 0,
    override: 0,
    unchanged: 0,
    deactivate: 0,
    keep: 0,
    invalid: 0,
  };
  for (const row of rows) summary[row.action] += 1;
  return summary;
}

async function classifyFile(
  executor: Executor,
  companyId: number,
  parsed: ParsedEmployeeRow[],
  deactivateMissing: boolean,
): Promise<EmployeeImportRow[]> {
  const existing = await findCompanyEmployeesForImport(executor, companyId);
  const distinct = new Set<string>();
  for (const r of parsed) if (r.email && !r.errors.email) distinct.add(r.email.toLowerCase());
  const emails = [...distinct];
  const elsewhere = await findEmailsUsedElsewhere(executor, companyId, emails);
  return classifyRows(parsed, existing, elsewhere, deactivateMissing);
}

/** What importing the file would do, row by row; nothing is written. */
export async function previewEmployeeImport(
  deps: ServiceDeps,
  scope: TenantScope,
  file: Buffer,
  options: EmployeeImportOptions = { deactivate_missing: false },
): Promise<EmployeeImportPreview> {
  const companyId = importCompany(scope);
  const parsed = parseEmployeeCsv(file);
  previewedFiles(deps).set(fileKey(file), parsed);
  const rows = await classifyFile(deps.database.db, companyId, parsed, options.deactivate_missing);
  return { rows, summary: summarise(rows) };
}

/**
 * Applies the file as the preview classified it (with the same `deactivate_missing`), in one
 * transaction with a few set-based statements (not one per row); invalid rows are skipped and
 * counted (partial success); unchanged rows and kept employees are not written. New
 * employees join the company's current token month. One audit row records the import.
 */
export async function importEmployees(
  deps: ServiceDeps,
  scope: TenantScope,
  file: Buffer,
  actor: AuditActor | null = null,
  fileName: string | null = null,
  options: EmployeeImportOptions = { deactivate_missing: false },
): Promise<EmployeeImportResult> {
  const companyId = importCompany(scope);
  const key = fileKey(file);
  const parsed = previewedFiles(deps).get(key) ?? parseEmployeeCsv(file);
  previewedFiles(deps).delete(key);
  const imported = await inTransaction(deps.database, async (tx) => {
    // Shared lock: waits out a running reset, so new employees join the month it opened.
    const company = await shareLockCompany(tx, scope, companyId);
    if (!company) throw new AppError('RECORD_NOT_FOUND');
    await lockCompanyImports(tx, companyId);
    await deferSearchIndexMerge(tx);
    const rows = await classifyFile(tx, companyId, parsed, options.deactivate_missing);
    const at = deps.clock.now();
    // Each employee created, changed or deactivated is one webhook event (decision 0084), written
    // by the statements below when some endpoint takes that type.
    const events = {
      created: await isEventWanted(tx, 'employee.created', companyId),
      updated: await isEventWanted(tx, 'employee.updated', companyId),
      deactivated: await isEventWanted(tx, 'employee.deactivated', companyId),
    };
    const status = (row: EmployeeImportRow) => row.status as Status;
    const created = await insertImportedEmployees(
      tx,
      companyId,
      company.tokenMonth,
      rows
        .filter((r) => r.action === 'create')
        .map((r) => ({
          employee_id: r.employee_id,
          email: r.email,
          name: r.name,
          status: status(r),
        })),
      at,
      events,
    );
    const changes = rows.filter((r) => r.action === 'override' || r.action === 'deactivate');
    await updateImportedEmployees(
      tx,
      companyId,
      changes.map((r) => ({
        id: r.id!,
        // Missing employees (line null) keep their name and email; only the status changes.
        email: r.line === null ? null : r.email,
        name: r.line === null ? null : r.name,
        status: status(r),
      })),
      at,
      events,
    );
    const rejected = rows.filter((r) => r.action === 'invalid');
    const counts = summarise(rows);
    const result: EmployeeImportResult = {
      created,
      updated: counts.override,
      unchanged: counts.unchanged,
      deactivated: counts.deactivate,
      skipped: rejected.length,
      deactivate_missing: options.deactivate_missing,
      rejected: rejected.length,
      rejected_rows: rejected.map((r) => ({
        line: r.line!,
        employee_id: r.employee_id,
        errors: r.errors ?? {},
      })),
    };
    await recordAudit(tx, {
      actor,
      action: 'import',
      entityType: 'employee',
      entityId: null,
      after: {
        company_id: companyId,
        file_name: fileName,
        deactivate_missing: result.deactivate_missing,
        created: result.created,
        updated: result.updated,
        unchanged: result.unchanged,
        deactivated: result.deactivated,
        kept: counts.keep,
        rejected: result.rejected,
      },
      at,
    });
    return result;
  }).catch((error: unknown) => {
    // An address another admin wrote after the file was classified (the email indexes refuse it,
    // migration 0028) fails the whole file with the create form's code: nothing is half-imported.
    throw emailDuplicateError(error) ?? error;
  });
  if (imported.created + imported.updated + imported.deactivated > 0) queueSearchIndexMerge(deps);
  return imported;
}
