import {
  EMPLOYEE_CSV_COLUMNS,
  EMPLOYEE_IMPORT_MAX_ROWS,
  emailSchema,
  employeeIdSchema,
  NAME_MAX,
  type EmployeeCsvColumn,
} from '@app/contract';
import { parseCsvFile } from '../../lib/csv-file';

/** One data row of the file, trimmed, with the errors found in it alone (no database yet). */
export interface ParsedEmployeeRow {
  /** The file line the row starts on (the header is line 1). */
  line: number;
  employee_id: string;
  email: string | null;
  name: string | null;
  /** As written; `active` when empty. */
  status: string;
  /** Shared and frozen when empty (most rows): copy before adding to it. */
  errors: Readonly<Record<string, string>>;
}

const NO_ERRORS: Readonly<Record<string, string>> = Object.freeze({});

function validateRow(
  values: Record<EmployeeCsvColumn, string>,
  extra: string[],
  line: number,
): ParsedEmployeeRow {
  let errors: Record<string, string> | undefined;
  const fail = (field: string, reason: string) => ((errors ??= {})[field] = reason);
  const staffNumber = employeeIdSchema.safeParse(values.employee_id);
  if (!staffNumber.success) fail('employee_id', staffNumber.error.issues[0]!.message);
  let email: string | null = null;
  if (values.email !== '') {
    const parsed = emailSchema.safeParse(values.email);
    if (parsed.success) email = parsed.data;
    else fail('email', parsed.error.issues[0]!.message);
  }
  if (values.name.length > NAME_MAX) fail('name', 'v.name_max');
  const lowered = values.status.toLowerCase();
  // The literals, not the cell's copy: 100,000 rows share two strings.
  const status =
    lowered === '' || lowered === 'active' ? 'active' : lowered === 'inactive' ? 'inactive' : null;
  if (status === null) fail('status', 'v.invalid');
  if (extra.some((value) => value !== '')) fail('_row', 'v.invalid');
  return {
    line,
    // As stored (NFKC, trimmed: employeeIdSchema), so matching existing staff numbers agrees.
    employee_id: staffNumber.success ? staffNumber.data : values.employee_id,
    email: email ?? (values.email || null),
    name: values.name || null,
    status: status ?? values.status,
    errors: errors ?? NO_ERRORS,
  };
}

/**
 * Reads the employee CSV of decision 0008 (the file checks of lib/csv-file: EMPTY_FILE,
 * FILE_INVALID, FILE_TOO_LARGE past EMPLOYEE_IMPORT_MAX_ROWS). Only `employee_id` is required;
 * row-level problems are returned in each row's `errors`, so one bad row does not sink the file.
 */
export function parseEmployeeCsv(buffer: Buffer): ParsedEmployeeRow[] {
  return parseCsvFile(buffer, {
    columns: EMPLOYEE_CSV_COLUMNS,
    required: ['employee_id'],
    maxRows: EMPLOYEE_IMPORT_MAX_ROWS,
    toRow: validateRow,
  });
}
