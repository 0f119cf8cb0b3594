import { isUtf8 } from 'node:buffer';
import { parse } from 'csv-parse/sync';
import { AppError } from './app-error';

/**
 * A CSV file the API reads (the employee import, rewards from a file): UTF-8 (a BOM is allowed),
 * comma-separated, a header row naming known columns in any order and case. `parseCsvFile` reads
 * and checks the file; what a row means is the caller's (`toRow`).
 */
export interface CsvFileSpec<C extends string, R> {
  /** The columns a header may name, in the order the messages list them. */
  columns: readonly C[];
  /** Columns the header must name. */
  required: readonly C[];
  /** The most data rows a file may hold (FILE_TOO_LARGE above it). */
  maxRows: number;
  /** One data row: its trimmed cells by column ('' when absent), cells past the header, its first line. */
  toRow: (values: Record<C, string>, extra: string[], line: number) => R;
}

/** No valid cell comes near this (a name is at most 200); a longer one is refused, not echoed. */
export const CSV_CELL_MAX = 1_000;
/** A header names a few columns; a spreadsheet adds a few empty ones at most. */
export const CSV_COLUMNS_MAX = 50;
/** Unknown header names quoted back at most, each cut to this many characters. */
const QUOTED_NAMES_MAX = 10;
const QUOTED_NAME_LENGTH = 40;

const fileInvalid = (message: string) => new AppError('FILE_INVALID', { message });

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
function readHeader<C extends string>(
  header: string[],
  spec: Pick<CsvFileSpec<C, unknown>, 'columns' | 'required'>,
): Map<C, number> {
  const known = new Set<string>(spec.columns);
  const positions = new Map<C, number>();
  const unknown: string[] = [];
  header.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if (name === '') return; // a trailing comma some spreadsheets add
    if (!known.has(name)) unknown.push(raw.trim());
    else if (positions.has(name as C)) {
      throw fileInvalid(`The header names the column ${name} twice.`);
    } else positions.set(name as C, index);
  });
  const expected = spec.columns.join(',');
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
  const missing = spec.required.filter((column) => !positions.has(column));
  if (missing.length > 0) {
    const names = missing.join(' and ');
    throw fileInvalid(
      `The header row must name ${missing.length === 1 ? 'an' : 'the'} ${names} column${missing.length === 1 ? '' : 's'}. Expected ${expected}.`,
    );
  }
  return positions;
}

/**
 * Refuses a record wider than CSV_COLUMNS_MAX or with a cell longer than CSV_CELL_MAX (issue 14):
 * a preview would otherwise send a 9 MB cell or a 700,000-column header back whole.
 */
function checkSize(
  record: string[],
  line: number,
  header: string[] | undefined,
  columns: ReadonlySet<string>,
): void {
  if (record.length > CSV_COLUMNS_MAX) {
    throw new AppError('FILE_TOO_MANY_COLUMNS', {
      metadata: { [`line ${line}`]: 'v.too_many_columns' },
    });
  }
  const at = record.findIndex((cell) => cell.length > CSV_CELL_MAX);
  if (at !== -1) {
    const column = header?.[at]?.trim().toLowerCase();
    const name = column && columns.has(column) ? column : `column ${at + 1}`;
    throw new AppError('FILE_CELL_TOO_LONG', {
      metadata: { [`line ${line}, ${name}`]: 'v.cell_too_long' },
    });
  }
}

const tooManyRows = (maxRows: number) =>
  new AppError('FILE_TOO_LARGE', {
    message: `The file has more than ${maxRows} rows; split it into files of at most ${maxRows} rows.`,
  });

/** With `raw: true`, csv-parse hands `on_record` this, not the bare record its types name. */
interface RawRecord {
  record: string[];
  /** The record's text, with the blank lines skipped before it. */
  raw: string;
}

/** The line a record starts on: the parser gives the line it ends on, and a quoted cell may span lines. */
function firstLine({ raw }: RawRecord, endLine: number): number {
  const body = raw.replace(/^(?:[ \t,]*\r?\n)+/, '').replace(/\r?\n$/, '');
  let interior = 0;
  for (let at = body.indexOf('\n'); at !== -1; at = body.indexOf('\n', at + 1)) interior += 1;
  return endLine - interior;
}

/**
 * Reads a CSV file by `spec`. Throws EMPTY_FILE for a file without data rows (0 bytes, blank, or
 * a header alone), FILE_INVALID for anything that is not a UTF-8 CSV with a valid header,
 * FILE_TOO_LARGE past `spec.maxRows` data rows. Row-level problems are the caller's, so one bad
 * row does not sink the file.
 *
 * Each record becomes its row as soon as it is parsed (`on_record`), from the bytes (no decoded
 * copy of the file): csv-parse's records, raw texts and info objects die young instead of being
 * held for the whole file (70 MB for 100,000 rows).
 */
export function parseCsvFile<C extends string, R>(buffer: Buffer, spec: CsvFileSpec<C, R>): R[] {
  if (buffer.length === 0) throw new AppError('EMPTY_FILE');
  checkUtf8(buffer);
  if (isBlank(buffer)) throw new AppError('EMPTY_FILE');
  const columnNames = new Set<string>(spec.columns);
  let header: { width: number; positions: Map<C, number>; names: string[] } | undefined;
  const rows: R[] = [];
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
        checkSize(parsed.record, context.lines, header?.names, columnNames);
        if (!header) {
          header = {
            width: parsed.record.length,
            positions: readHeader(parsed.record, spec),
            names: parsed.record,
          };
        } else if (rows.length === spec.maxRows) {
          throw tooManyRows(spec.maxRows); // at the first row past the cap, without reading further
        } else {
          const { record } = parsed;
          const positions = header.positions;
          const values = {} as Record<C, string>;
          for (const column of spec.columns) {
            const index = positions.get(column);
            values[column] = index === undefined ? '' : (record[index] ?? '');
          }
          rows.push(
            spec.toRow(values, record.slice(header.width), firstLine(parsed, context.lines)),
          );
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
