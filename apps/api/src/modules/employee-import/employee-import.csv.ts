import { parse } from 'csv-parse/sync';
import {
  EMPLOYEE_CSV_COLUMNS,
  EMPLOYEE_IMPORT_MAX_ROWS,
  emailSchema,
  employeeIdSchema,
  type EmployeeCsvColumn,
} from '@app/contract';
import { AppError } from '../../lib/app-error';

/** One data row of the file, trimmed, with the errors found in it alone (no database yet). */
export interface ParsedEmployeeRow {
  /** The file line the row starts on (the header is line 1). */
  line: number;
  employee_id: string;
  email: string | null;
  name: string | null;
  /** As written; `active` when empty. */
  status: string;
  errors: Record<string, string>;
}

const NAME_MAX = 200;
const COLUMNS = new Set<string>(EMPLOYEE_CSV_COLUMNS);
const isColumn = (name: string): name is EmployeeCsvColumn => COLUMNS.has(name);

const fileInvalid = (message: string) => new AppError('FILE_INVALID', { message });

/** The text of an upload: UTF-8 only (a BOM is dropped); binary or other encodings are refused. */
function decodeUtf8(buffer: Buffer): string {
  if (buffer.includes(0)) {
    throw fileInvalid('The file is not a text CSV (it contains binary data).');
  }
  try {
    // Strips a UTF-8 BOM; `fatal` refuses Latin-1, UTF-16 and other non-UTF-8 bytes.
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    throw fileInvalid('The file is not valid UTF-8. Save it as “CSV UTF-8” and upload it again.');
  }
}

/** Where each column of the header sits; refuses unknown, repeated and missing columns. */
function readHeader(header: string[]): Map<EmployeeCsvColumn, number> {
  const positions = new Map<EmployeeCsvColumn, number>();
  const unknown: string[] = [];
  header.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if (name === '') return; // a trailing comma some spreadsheets add
    if (!isColumn(name)) unknown.push(raw.trim());
    else if (positions.has(name)) throw fileInvalid(`The header names the column ${name} twice.`);
    else positions.set(name, index);
  });
  const expected = EMPLOYEE_CSV_COLUMNS.join(',');
  if (unknown.length > 0) {
    throw fileInvalid(
      `Unknown column(s) in the header row: ${unknown.join(', ')}. Expected ${expected}.`,
    );
  }
  if (!positions.has('employee_id')) {
    throw fileInvalid(`The header row must name an employee_id column. Expected ${expected}.`);
  }
  return positions;
}

function validateRow(
  values: Record<EmployeeCsvColumn, string>,
  extra: string[],
  line: number,
): ParsedEmployeeRow {
  const errors: Record<string, string> = {};
  const staffNumber = employeeIdSchema.safeParse(values.employee_id);
  if (!staffNumber.success) errors.employee_id = staffNumber.error.issues[0]!.message;
  let email: string | null = null;
  if (values.email !== '') {
    const parsed = emailSchema.safeParse(values.email);
    if (parsed.success) email = parsed.data;
    else errors.email = parsed.error.issues[0]!.message;
  }
  if (values.name.length > NAME_MAX) errors.name = 'v.invalid';
  const status = values.status === '' ? 'active' : values.status.toLowerCase();
  if (status !== 'active' && status !== 'inactive') errors.status = 'v.invalid';
  if (extra.some((value) => value !== '')) errors._row = 'v.invalid';
  return {
    line,
    employee_id: values.employee_id,
    email: email ?? (values.email || null),
    name: values.name || null,
    status: errors.status ? values.status : status,
    errors,
  };
}

interface ParsedRecord {
  record: string[];
  raw: string;
  info: { lines: number };
}

/**
 * Reads the employee CSV of decision 0008. Throws EMPTY_FILE for a file without data rows (0 bytes,
 * blank, or a header alone), FILE_INVALID for anything that is not a UTF-8 CSV with a valid header,
 * FILE_TOO_LARGE past EMPLOYEE_IMPORT_MAX_ROWS data rows. Row-level problems are returned in
 * each row's `errors`, so one bad row does not sink the file.
 */
export function parseEmployeeCsv(buffer: Buffer): ParsedEmployeeRow[] {
  if (buffer.length === 0) throw new AppError('EMPTY_FILE');
  const text = decodeUtf8(buffer);
  if (text.trim() === '') throw new AppError('EMPTY_FILE');
  let records: ParsedRecord[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      raw: true,
      trim: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      relax_column_count: true,
      // The header, the row cap, and one more to tell that the cap was passed.
      to: EMPLOYEE_IMPORT_MAX_ROWS + 2,
    }) as unknown as ParsedRecord[];
  } catch (error) {
    throw fileInvalid(`The file could not be read as CSV: ${(error as Error).message}`);
  }
  const [header, ...data] = records;
  if (!header) throw new AppError('EMPTY_FILE');
  const positions = readHeader(header.record);
  if (data.length === 0) throw new AppError('EMPTY_FILE');
  if (data.length > EMPLOYEE_IMPORT_MAX_ROWS) {
    throw new AppError('FILE_TOO_LARGE', {
      message: `The file has more than ${EMPLOYEE_IMPORT_MAX_ROWS} rows; split it into files of at most ${EMPLOYEE_IMPORT_MAX_ROWS} rows.`,
    });
  }
  const used = new Set(positions.values());
  return data.map(({ record, raw, info }) => {
    // info.lines is the line the record ends on; a quoted field may span several lines, and the
    // raw text also carries the skipped blank lines before the record.
    const body = raw.replace(/^(?:[ \t,]*\r?\n)+/, '').replace(/\r?\n$/, '');
    const interior = (body.match(/\n/g) ?? []).length;
    const values = Object.fromEntries(
      EMPLOYEE_CSV_COLUMNS.map((column) => {
        const index = positions.get(column);
        return [column, index === undefined ? '' : (record[index] ?? '')];
      }),
    ) as Record<EmployeeCsvColumn, string>;
    const extra = record.filter((_, index) => !used.has(index) && index >= header.record.length);
    return validateRow(values, extra, info.lines - interior);
  });
}
