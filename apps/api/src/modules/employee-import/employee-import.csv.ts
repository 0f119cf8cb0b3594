import { isUtf8 } from 'node:buffer';
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
  /** Shared and frozen when empty (most rows): copy before adding to it. */
  errors: Readonly<Record<string, string>>;
}

const NAME_MAX = 200;
/** No valid cell comes near this (a name is at most 200); a longer one is refused, not echoed. */
export const CSV_CELL_MAX = 1_000;
/** The header names 4 columns; a spreadsheet adds a few empty ones at most. */
export const CSV_COLUMNS_MAX = 50;
/** Unknown header names quoted back at most, each cut to this many characters. */
const QUOTED_NAMES_MAX = 10;
const QUOTED_NAME_LENGTH = 40;
const COLUMNS = new Set<string>(EMPLOYEE_CSV_COLUMNS);
const isColumn = (name: string): name is EmployeeCsvColumn => COLUMNS.has(name);

const fileInvalid = (message: string) => new AppError('FILE_INVALID', { message });
const NO_ERRORS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Refuses an upload that is not UTF-8 text: binary (NUL bytes), Latin-1, UTF-16 and other
 * encodings. Checked on the bytes, so no decoded copy of the file is made.
 */
function checkUtf8(buffer: Buffer): void {
  if (buffer.includes(0)) {
    throw fileInvalid('The file is not a text CSV (it contains binary data).');
  }
  if (!isUtf8(buffer)) {
    throw fileInvalid('The file is not valid UTF-8. Save it as “CSV UTF-8” and upload it again.');
  }
}

/** True when the text holds nothing but whitespace (what String#trim drops, a BOM included). */
function isBlank(buffer: Buffer): boolean {
  for (const byte of buffer) {
    if (byte === 0x20 || (byte >= 0x09 && byte <= 0x0d)) continue;
    // A non-ASCII byte may start a Unicode space or a BOM: only then is the text decoded.
    return byte < 0x80 ? false : buffer.toString('utf8').trim() === '';
  }
  return true;
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
    // Quoted back in part: the message names the problem without echoing the file.
    const quoted = unknown
      .slice(0, QUOTED_NAMES_MAX)
      .map((name) =>
        name.length > QUOTED_NAME_LENGTH ? `${name.slice(0, QUOTED_NAME_LENGTH)}…` : name,
      );
    const more =
      unknown.length > QUOTED_NAMES_MAX ? ` and ${unknown.length - QUOTED_NAMES_MAX} more` : '';
    throw fileInvalid(
      `Unknown column(s) in the header row: ${quoted.join(', ')}${more}. Expected ${expected}.`,
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
  if (values.name.length > NAME_MAX) fail('name', 'v.invalid');
  const lowered = values.status.toLowerCase();
  // The literals, not the cell's copy: 100,000 rows share two strings.
  const status =
    lowered === '' || lowered === 'active' ? 'active' : lowered === 'inactive' ? 'inactive' : null;
  if (status === null) fail('status', 'v.invalid');
  if (extra.some((value) => value !== '')) fail('_row', 'v.invalid');
  return {
    line,
    employee_id: values.employee_id,
    email: email ?? (values.email || null),
    name: values.name || null,
    status: status ?? values.status,
    errors: errors ?? NO_ERRORS,
  };
}

/**
 * Refuses a record wider than CSV_COLUMNS_MAX or with a cell longer than CSV_CELL_MAX (issue 14):
 * the preview would otherwise send a 9 MB cell or a 700,000-column header back whole.
 */
function checkSize(record: string[], line: number, header: string[] | undefined): void {
  if (record.length > CSV_COLUMNS_MAX) {
    throw new AppError('FILE_TOO_MANY_COLUMNS', {
      metadata: { [`line ${line}`]: 'v.too_many_columns' },
    });
  }
  const at = record.findIndex((cell) => cell.length > CSV_CELL_MAX);
  if (at !== -1) {
    const column = header?.[at]?.trim().toLowerCase();
    const name = column && isColumn(column) ? column : `column ${at + 1}`;
    throw new AppError('FILE_CELL_TOO_LONG', {
      metadata: { [`line ${line}, ${name}`]: 'v.cell_too_long' },
    });
  }
}

const tooManyRows = () =>
  new AppError('FILE_TOO_LARGE', {
    message: `The file has more than ${EMPLOYEE_IMPORT_MAX_ROWS} rows; split it into files of at most ${EMPLOYEE_IMPORT_MAX_ROWS} rows.`,
  });

/** With `raw: true`, csv-parse hands `on_record` this, not the bare record its types name. */
interface RawRecord {
  record: string[];
  /** The record's text, with the blank lines skipped before it. */
  raw: string;
}

/** A data record as its row; `header` is the header row's width and where each column sits. */
function toRow(
  { record, raw }: RawRecord,
  endLine: number,
  header: { width: number; positions: Map<EmployeeCsvColumn, number> },
): ParsedEmployeeRow {
  // The parser gives the line a record ends on; a quoted field may span several lines.
  const body = raw.replace(/^(?:[ \t,]*\r?\n)+/, '').replace(/\r?\n$/, '');
  let interior = 0;
  for (let at = body.indexOf('\n'); at !== -1; at = body.indexOf('\n', at + 1)) interior += 1;
  const cell = (column: EmployeeCsvColumn) => {
    const index = header.positions.get(column);
    return index === undefined ? '' : (record[index] ?? '');
  };
  const values = {
    employee_id: cell('employee_id'),
    email: cell('email'),
    name: cell('name'),
    status: cell('status'),
  } satisfies Record<EmployeeCsvColumn, string>;
  return validateRow(values, record.slice(header.width), endLine - interior);
}

/**
 * Reads the employee CSV of decision 0008. Throws EMPTY_FILE for a file without data rows (0 bytes,
 * blank, or a header alone), FILE_INVALID for anything that is not a UTF-8 CSV with a valid header,
 * FILE_TOO_LARGE past EMPLOYEE_IMPORT_MAX_ROWS data rows. Row-level problems are returned in
 * each row's `errors`, so one bad row does not sink the file.
 *
 * Each record becomes its row as soon as it is parsed (`on_record`), from the bytes (no decoded
 * copy of the file): csv-parse's records, raw texts and info objects die young instead of being
 * held for the whole file (70 MB for 100,000 rows).
 */
export function parseEmployeeCsv(buffer: Buffer): ParsedEmployeeRow[] {
  if (buffer.length === 0) throw new AppError('EMPTY_FILE');
  checkUtf8(buffer);
  if (isBlank(buffer)) throw new AppError('EMPTY_FILE');
  let header:
    { width: number; positions: Map<EmployeeCsvColumn, number>; names: string[] } | undefined;
  const rows: ParsedEmployeeRow[] = [];
  try {
    parse(buffer, {
      bom: true,
      raw: true,
      trim: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      relax_column_count: true,
      // Stops a runaway record early (a 700,000-column header, a 9 MB cell): no record within
      // the caps holds more characters than this.
      max_record_size: CSV_COLUMNS_MAX * (CSV_CELL_MAX + 1),
      // Keeps the row and drops the record (null): the parser itself collects nothing.
      on_record: (entry, context) => {
        const parsed = entry as unknown as RawRecord;
        checkSize(parsed.record, context.lines, header?.names);
        if (!header) {
          header = {
            width: parsed.record.length,
            positions: readHeader(parsed.record),
            names: parsed.record,
          };
        } else if (rows.length === EMPLOYEE_IMPORT_MAX_ROWS) {
          throw tooManyRows(); // at the first row past the cap, without reading further
        } else {
          rows.push(toRow(parsed, context.lines, header));
        }
        return null;
      },
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    const { code, index, lines } = error as { code?: unknown; index?: unknown; lines?: unknown };
    if (code === 'CSV_MAX_RECORD_SIZE') {
      // `index` is the field the parser was in: past the column cap, the record is too wide.
      const where = typeof lines === 'number' ? `line ${lines}` : 'file';
      throw typeof index === 'number' && index >= CSV_COLUMNS_MAX
        ? new AppError('FILE_TOO_MANY_COLUMNS', { metadata: { [where]: 'v.too_many_columns' } })
        : new AppError('FILE_CELL_TOO_LONG', { metadata: { [where]: 'v.cell_too_long' } });
    }
    throw fileInvalid(`The file could not be read as CSV: ${(error as Error).message}`);
  }
  if (rows.length === 0) throw new AppError('EMPTY_FILE');
  return rows;
}
