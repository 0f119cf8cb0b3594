import { describe, expect, it } from 'vitest';
import { EMPLOYEE_IMPORT_MAX_ROWS } from '@app/contract';
import { AppError } from '../../lib/app-error';
import { parseEmployeeCsv } from './employee-import.csv';

const parse = (text: string | Buffer) =>
  parseEmployeeCsv(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);

/** The AppError code and message a file is refused with. */
function refusal(text: string | Buffer): { code: string; message: string } {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the file to be refused');
}

describe('the employee CSV parser', () => {
  it('reads a header in any order and case, with a BOM, CRLF and trimmed cells', () => {
    const rows = parse(
      '\uFEFF Status ,NAME,Employee_ID,email\r\nInactive, Ada ,E001 , ada@x.example\r\n',
    );
    expect(rows).toEqual([
      {
        line: 2,
        employee_id: 'E001',
        email: 'ada@x.example',
        name: 'Ada',
        status: 'inactive',
        errors: {},
      },
    ]);
  });

  it('reads quoted fields holding commas, quotes and newlines, numbering rows by their first line', () => {
    const rows = parse(
      'employee_id,name,email\n"E001","Lovelace, Ada",\n"E002","Grace ""Amazing""\nHopper",\n\nE003,Plain,\n',
    );
    expect(rows.map((r) => [r.line, r.employee_id, r.name])).toEqual([
      [2, 'E001', 'Lovelace, Ada'],
      [3, 'E002', 'Grace "Amazing"\nHopper'],
      [6, 'E003', 'Plain'],
    ]);
  });

  it('numbers rows by their first line when a CRLF file holds a stray LF in a cell', () => {
    const rows = parse('employee_id,name\r\nE001,Ada\nLovelace\r\n\r\nE002,Grace\r\n');
    expect(rows.map((r) => [r.line, r.employee_id])).toEqual([
      [2, 'E001'],
      [5, 'E002'],
    ]);
  });

  it('defaults an empty or absent status to active and an empty email or name to null', () => {
    expect(parse('employee_id,status,email,name\nE001,,,\n')[0]).toMatchObject({
      status: 'active',
      email: null,
      name: null,
      errors: {},
    });
    expect(parse('employee_id\nE002\n')[0]).toMatchObject({ status: 'active', errors: {} });
  });

  it('marks each invalid cell with its validation key', () => {
    const rows = parse(
      [
        'employee_id,email,name,status',
        'E,a@x.example,,active',
        `${'E'.repeat(51)},,,`,
        ',,,',
        ' ,b@x.example,,',
        'E004,not-an-email,,',
        'E005,,,paused',
        `E006,,${'n'.repeat(201)},`,
        'E007,,,,extra',
      ].join('\n'),
    );
    expect(rows.map((r) => [r.line, r.errors])).toEqual([
      [2, { employee_id: 'v.employee_id_min' }],
      [3, { employee_id: 'v.employee_id_max' }],
      [5, { employee_id: 'v.employee_id_required' }],
      [6, { email: 'v.email_invalid' }],
      [7, { status: 'v.invalid' }],
      [8, { name: 'v.name_max' }],
      [9, { _row: 'v.invalid' }],
    ]);
    // The file's own value is kept for display.
    expect(rows[3]!.email).toBe('not-an-email');
    expect(rows[4]!.status).toBe('paused');
  });

  it.each([
    ['0 bytes', ''],
    ['blank lines', '\r\n\r\n  \n'],
    ['a BOM alone', '\uFEFF'],
    ['Unicode spaces', '\u00A0\u3000\r\n'],
    ['a header alone', 'employee_id,email,name,status\r\n'],
  ])('refuses a file of %s as EMPTY_FILE', (_label, text) => {
    expect(refusal(text).code).toBe('EMPTY_FILE');
  });

  it('refuses binary, UTF-16 and Latin-1 content as FILE_INVALID', () => {
    expect(
      refusal(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0])),
    ).toMatchObject({
      code: 'FILE_INVALID',
      message: expect.stringContaining('binary'),
    });
    expect(refusal(Buffer.from('\uFEFFemployee_id\nE001\n', 'utf16le')).code).toBe('FILE_INVALID');
    expect(refusal(Buffer.from('employee_id,name\nE001,Jos\xe9\n', 'latin1'))).toMatchObject({
      code: 'FILE_INVALID',
      message: expect.stringContaining('UTF-8'),
    });
  });

  it('refuses a header without employee_id, with unknown or repeated columns, or broken quoting', () => {
    expect(refusal('email,name\na@x.example,Ada\n')).toMatchObject({
      code: 'FILE_INVALID',
      message: expect.stringContaining('employee_id'),
    });
    expect(refusal('employee_id,emial\nE001,a@x.example\n')).toMatchObject({
      code: 'FILE_INVALID',
      message: expect.stringContaining('emial'),
    });
    expect(refusal('employee_id,EMPLOYEE_ID\nE001,E002\n').code).toBe('FILE_INVALID');
    expect(refusal('employee_id,name\nE001,"Ada\n').code).toBe('FILE_INVALID');
  });

  it('ignores the empty column a trailing comma makes', () => {
    expect(parse('employee_id,name,\nE001,Ada,\n')[0]).toMatchObject({ name: 'Ada', errors: {} });
  });

  it('refuses more rows than the cap as FILE_TOO_LARGE, naming the limit', () => {
    const lines = ['employee_id'];
    for (let i = 0; i <= EMPLOYEE_IMPORT_MAX_ROWS; i += 1) lines.push(`E${i}`);
    expect(refusal(lines.join('\n'))).toMatchObject({
      code: 'FILE_TOO_LARGE',
      message: expect.stringContaining(String(EMPLOYEE_IMPORT_MAX_ROWS)),
    });
    expect(parse(lines.slice(0, -1).join('\n'))).toHaveLength(EMPLOYEE_IMPORT_MAX_ROWS);
  });
});
