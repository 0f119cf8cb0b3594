import { sql, type SQL } from 'drizzle-orm';
import type { Status } from '@app/contract';
import { queryRows, type Executor, type Tx } from '../../db/client';
import { toInt } from '../../lib/numbers';

/** Every employee of a company, deleted ones too (their staff numbers stay reserved). */
export interface ImportExistingEmployee {
  id: number;
  employee_id: string;
  email: string | null;
  name: string | null;
  status: Status;
  deleted: boolean;
}

export async function findCompanyEmployeesForImport(
  executor: Executor,
  companyId: number,
): Promise<ImportExistingEmployee[]> {
  const rows = await queryRows<Record<string, unknown>>(
    executor,
    sql`SELECT id, employee_id, email, name, status, deleted_at IS NOT NULL AS deleted
          FROM employees WHERE company_id = ${companyId} ORDER BY id`,
  );
  return rows.map((r) => ({
    id: toInt(r.id),
    employee_id: r.employee_id as string,
    email: r.email as string | null,
    name: r.name as string | null,
    status: r.status as Status,
    deleted: r.deleted === true || r.deleted === 't',
  }));
}

/**
 * Rows per statement when a file's rows are sent to the database: each slice is one small JSON
 * parameter, instead of one of the whole file (100,000 rows: 8 MB of JSON, then copied into the
 * driver's growing write buffer) held at once.
 */
export const IMPORT_SLICE_ROWS = 5_000;

function* slices<T>(rows: T[]): Generator<T[]> {
  for (let start = 0; start < rows.length; start += IMPORT_SLICE_ROWS) {
    yield rows.slice(start, start + IMPORT_SLICE_ROWS);
  }
}

/**
 * Which of these emails (lower-cased) live employees of other companies use. The list is one
 * text[] parameter, unnested and joined: the planner sizes `unnest` of a bound array by its
 * length, so a few emails are looked up in the email index, and a whole file's (100,000: a 3 MB
 * parameter, sent once) are matched by a hash join in one scan (175–250 ms, against 305–385 for
 * `= ANY(array)`, which probed the email index once per address; decision 0065). (Not
 * `IN (SELECT jsonb_array_elements_text(…))`: the planner takes that function's output for 100
 * rows, and then looks 100,000 emails up one by one, in the trigram index of the employee search
 * when there is one: minutes.)
 */
export async function findEmailsUsedElsewhere(
  executor: Executor,
  companyId: number,
  emails: string[],
): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await queryRows<{ email: string }>(
    executor,
    sql`SELECT DISTINCT f.email
          FROM unnest(${sql.param(emails)}::text[]) AS f(email)
          JOIN employees e ON lower(e.email) = f.email
         WHERE e.company_id <> ${companyId} AND e.deleted_at IS NULL AND e.email IS NOT NULL`,
  );
  return new Set(rows.map((r) => r.email));
}

/** Serialises imports of one company, so two files cannot classify against the same state. */
export async function lockCompanyImports(tx: Tx, companyId: number): Promise<void> {
  await queryRows(tx, sql`SELECT pg_advisory_xact_lock(727002, ${companyId % 2147483647}::int)`);
}

/**
 * How much of the employee search's trigram index (`employees_search_idx`) an import may leave in
 * the index's pending list, for the import's transaction only. An import of 100,000 rows writes
 * some 6 million trigram entries: with the default 4 MB list, the insert stops every few thousand
 * rows to merge the list into the index, about a second of the import's wait (decision 0066). With
 * this limit the entries wait in the list, which searches read as well, and the merge runs after the
 * commit (`mergeSearchIndexEntries`), outside the admin's wait. The largest file's entries fit.
 */
const IMPORT_PENDING_LIST_LIMIT = '256MB';

/** Lets this transaction's writes leave their search-index entries pending (see above). */
export async function deferSearchIndexMerge(tx: Tx): Promise<void> {
  await queryRows(tx, sql.raw(`SET LOCAL gin_pending_list_limit = '${IMPORT_PENDING_LIST_LIMIT}'`));
}

/**
 * Merges the search index's pending entries into the index; answers how many pending pages it
 * merged (0 when none were left). It needs the index's owner, the role that ran the migrations.
 */
export async function mergeSearchIndexEntries(executor: Executor): Promise<number> {
  const [row] = await queryRows<{ pages: unknown }>(
    executor,
    sql`SELECT gin_clean_pending_list('employees_search_idx'::regclass) AS pages`,
  );
  return toInt(row!.pages);
}

export interface NewImportedEmployee {
  employee_id: string;
  email: string | null;
  name: string | null;
  status: Status;
}

/**
 * An employee row's webhook data (decision 0084), from the columns of `alias`, as the employees
 * module's single changes write it (`eventData` in employees.service.ts): never a balance.
 */
const employeeEventData = (alias: 'i' | 'u', companyCode: SQL): SQL => {
  const a = sql.raw(alias);
  return sql`jsonb_build_object('id', ${a}.id, 'employee_id', ${a}.employee_id,
               'name', ${a}.name, 'email', ${a}.email, 'status', ${a}.status,
               'monthly_tokens', ${a}.monthly_tokens,
               'updated_at', to_char(${a}.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'company_code', ${companyCode})`;
};

const companyCodeOf = (companyId: number) =>
  sql`(SELECT c.code FROM companies c WHERE c.id = ${companyId})`;

/** Which of an import's webhook events some endpoint takes (asked once per import). */
export interface ImportEvents {
  created: boolean;
  updated: boolean;
  deactivated: boolean;
}

export const NO_IMPORT_EVENTS: ImportEvents = {
  created: false,
  updated: false,
  deactivated: false,
};

/**
 * Inserts the new employees, into the company's current token month, with one statement per
 * IMPORT_SLICE_ROWS rows; answers how many were inserted. When an endpoint takes
 * `employee.created`, the same statement writes one event per employee (`webhook_enqueue_each`,
 * decision 0084), in the import's transaction.
 */
export async function insertImportedEmployees(
  tx: Tx,
  companyId: number,
  tokenMonth: string,
  rows: NewImportedEmployee[],
  at: Date,
  events: ImportEvents = NO_IMPORT_EVENTS,
): Promise<number> {
  let inserted = 0;
  const atText = at.toISOString();
  for (const slice of slices(rows)) {
    // Counted in the database: the driver does not build a result row per employee.
    const [counted] = await queryRows<{ n: unknown }>(
      tx,
      sql`WITH inserted AS (
            INSERT INTO employees (company_id, employee_id, name, email, status, token_month,
                                   created_at, updated_at)
            SELECT ${companyId}, x.employee_id, x.name, x.email, x.status, ${tokenMonth},
                   ${atText}::timestamptz, ${atText}::timestamptz
              FROM jsonb_to_recordset(${JSON.stringify(slice)}::jsonb)
                   AS x(employee_id text, name text, email text, status text)
            RETURNING id, employee_id, name, email, status, monthly_tokens, updated_at)
          SELECT count(*) AS n${
            events.created
              ? sql`, webhook_enqueue_each('employee.created', ${companyId}, NULL,
                       (SELECT jsonb_agg(${employeeEventData('i', companyCodeOf(companyId))} ORDER BY i.id)
                          FROM inserted i),
                       ${atText}::timestamptz) AS events`
              : sql``
          } FROM inserted`,
    );
    inserted += toInt(counted!.n);
  }
  return inserted;
}

export interface ImportedEmployeeChange {
  id: number;
  /** Null keeps the current value (an empty cell). */
  email: string | null;
  name: string | null;
  status: Status;
}

/**
 * Applies the changes, one statement per IMPORT_SLICE_ROWS rows; rows whose values are already
 * those are left alone. When endpoints take them, the same statement writes each changed
 * employee's `employee.deactivated` (active to inactive) or `employee.updated` event (decision
 * 0084), with the fields it changed (read from the row before the update, `old`).
 */
export async function updateImportedEmployees(
  tx: Tx,
  companyId: number,
  rows: ImportedEmployeeChange[],
  at: Date,
  events: ImportEvents = NO_IMPORT_EVENTS,
): Promise<void> {
  const atText = at.toISOString();
  const wantsEvents = events.updated || events.deactivated;
  const eventsOf = (type: 'employee.updated' | 'employee.deactivated', wanted: boolean) =>
    wanted
      ? sql`, webhook_enqueue_each(${type}, ${companyId}, NULL,
               (SELECT jsonb_agg(${employeeEventData('u', companyCodeOf(companyId))}
                                 || jsonb_build_object('changed', u.changed)
                                 ${type === 'employee.deactivated' ? sql`|| '{"deleted": false}'::jsonb` : sql``}
                                 ORDER BY u.id)
                  FROM updated u
                 WHERE u.deactivated = ${type === 'employee.deactivated'}),
               ${atText}::timestamptz)`
      : sql``;
  for (const slice of slices(rows)) {
    await queryRows(
      tx,
      sql`WITH updated AS (
            UPDATE employees e
               SET name = coalesce(x.name, e.name), email = coalesce(x.email, e.email),
                   status = x.status, updated_at = ${atText}::timestamptz
              FROM jsonb_to_recordset(${JSON.stringify(slice)}::jsonb)
                   AS x(id bigint, name text, email text, status text),
                   employees old
             WHERE e.id = x.id AND e.company_id = ${companyId} AND e.deleted_at IS NULL
               AND old.id = e.id
               AND (e.name, e.email, e.status) IS DISTINCT FROM
                   (coalesce(x.name, e.name), coalesce(x.email, e.email), x.status)
            RETURNING e.id, e.employee_id, e.name, e.email, e.status, e.monthly_tokens,
                      e.updated_at,
                      old.status = 'active' AND e.status = 'inactive' AS deactivated,
                      ${
                        wantsEvents
                          ? sql`to_jsonb(array_remove(ARRAY[
                              CASE WHEN e.name IS DISTINCT FROM old.name THEN 'name' END,
                              CASE WHEN e.email IS DISTINCT FROM old.email THEN 'email' END,
                              CASE WHEN e.status IS DISTINCT FROM old.status THEN 'status' END],
                              NULL))`
                          : sql`NULL::jsonb`
                      } AS changed)
          SELECT count(*) AS n${eventsOf('employee.updated', events.updated)}${eventsOf(
            'employee.deactivated',
            events.deactivated,
          )} FROM updated`,
    );
  }
}
