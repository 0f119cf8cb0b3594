import crypto from 'node:crypto';
import { TransactionRollbackError, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EMPLOYEE_IMPORT_MAX_BYTES,
  EMPLOYEE_IMPORT_MAX_ROWS,
  dataOf,
  employeeImportPreviewSchema,
  type Company,
  type EmployeeImportPreview,
  type EmployeeImportRow,
} from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs } from '../../../test/auth';
import { multipart } from '../../../test/http';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { newCompany, signedIn, type SignedInUser } from '../../../test/management';
import { queryRows } from '../../db/client';
import {
  IMPORT_SLICE_ROWS,
  deferSearchIndexMerge,
  insertImportedEmployees,
  mergeSearchIndexEntries,
} from './employee-import.repository';
import { PREVIEW_CHUNK_ROWS } from './employee-import.routes';
import { PREVIEWED_FILES, SEARCH_INDEX_MERGES } from './employee-import.service';

interface StoredEmployee {
  id: number;
  employee_id: string;
  name: string | null;
  email: string | null;
  status: string;
  token_month: string;
  deleted: boolean;
}

describe.each(await testDatabaseKinds())('employee CSV import on %s', (kind) => {
  let t: TestApp;
  let admin: SignedInUser;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signedIn(t, 'admin');
  });
  afterAll(() => t.close());

  const db = () => t.db.database.db;

  /** A company of its own for each test, with its admin signed in. */
  async function companyWithAdmin(): Promise<{ company: Company; as: SignedInUser }> {
    const company = await newCompany(t);
    return { company, as: await signedIn(t, 'company_admin', { companyId: company.id }) };
  }

  const upload = (
    who: SignedInUser,
    path: '/preview' | '',
    content: string | Buffer,
    field?: string,
    fields?: Record<string, string>,
  ) =>
    injectAs(t.app, who.session, {
      method: 'POST',
      url: `/api/v1/employees/import${path}`,
      ...multipart(content, { field, fields }),
    });
  const optIn = { deactivate_missing: 'true' };

  const createEmployee = async (who: SignedInUser, body: Record<string, unknown>) => {
    const res = await injectAs(t.app, who.session, {
      method: 'POST',
      url: '/api/v1/employees',
      payload: { status: 'active', ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number };
  };

  const employeesOf = (companyId: number) =>
    queryRows<StoredEmployee>(
      db(),
      sql`SELECT id::int AS id, employee_id, name, email, status, token_month,
                 deleted_at IS NOT NULL AS deleted
            FROM employees WHERE company_id = ${companyId} ORDER BY id`,
    );

  /** A company with one employee in each state a file can meet, and a file that meets them all. */
  async function mixedProgramme() {
    // Emails are unique per programme: another company's addresses would collide.
    const tag = crypto.randomBytes(3).toString('hex');
    const { company, as } = await companyWithAdmin();
    const elsewhere = await companyWithAdmin();
    await createEmployee(elsewhere.as, {
      employee_id: 'X001',
      email: `taken@elsewhere-${tag}.example`,
    });
    const keep = await createEmployee(as, { employee_id: 'KEEP', name: 'Old name' });
    const same = await createEmployee(as, {
      employee_id: 'SAME',
      name: 'Same',
      email: `same@acme-${tag}.example`,
    });
    const off = await createEmployee(as, { employee_id: 'OFF', name: 'Leaving' });
    const gone = await createEmployee(as, {
      employee_id: 'GONE',
      email: `gone@acme-${tag}.example`,
    });
    const idle = await createEmployee(as, { employee_id: 'IDLE', status: 'inactive' });
    const deleted = await createEmployee(as, { employee_id: 'DELETED' });
    await injectAs(t.app, as.session, { method: 'DELETE', url: `/api/v1/employees/${deleted.id}` });
    const file = [
      'employee_id,email,name,status',
      'KEEP,,New name,active', // 2 override (name changes, email kept)
      `SAME,same@acme-${tag}.example,Same,active`, // 3 unchanged: nothing to change
      'OFF,,,inactive', // 4 deactivate
      `NEW1,new1@acme-${tag}.example,New One,`, // 5 create, status defaults to active
      'NEW2,,New Two,inactive', // 6 create, inactive
      `NEW1,other@acme-${tag}.example,Again,active`, // 7 invalid: staff number repeated
      `NEW3,NEW1@acme-${tag}.example,,`, // 8 invalid: email repeated
      `NEW4,taken@Elsewhere-${tag}.example,,`, // 9 invalid: email of another company
      `NEW5,gone@acme-${tag}.example,,`, // 10 invalid: email of another employee here
      'DELETED,,,', // 11 invalid: a deleted employee's staff number stays reserved
      'E,bad-email,,sometimes', // 12 invalid: three reasons
    ].join('\r\n');
    return { company, as, elsewhere, keep, same, off, gone, idle, file, tag };
  }

  it("serves a template whose example row is nobody's: refused if left in, never applied", async () => {
    const { as, company } = await companyWithAdmin();
    const res = await injectAs(t.app, as.session, { url: '/api/v1/employees/import/template' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('employees-template.csv');
    expect(res.body.split('\r\n')).toEqual([
      'employee_id,email,name,status',
      'EXAMPLE-DELETE-ME,jane.doe@example.com,Jane Doe,active',
      '',
    ]);
    // Issue 41 item 7: even in a company where an employee holds the example's staff number, the
    // row is the template's, refused, and changes no one.
    await createEmployee(as, { employee_id: 'EXAMPLE-DELETE-ME', name: 'Kept Name' });
    const withOne = `${res.body}E0100,new.one@example.com,New One,active\r\n`;
    const preview = await upload(as, '/preview', withOne);
    expect(preview.json().data.summary).toMatchObject({ create: 1, override: 0, invalid: 1 });
    expect(preview.json().data.rows[0]).toMatchObject({
      line: 2,
      action: 'invalid',
      errors: { employee_id: 'v.template_example' },
    });
    const applied = await upload(as, '', withOne);
    expect(applied.statusCode).toBe(200);
    expect(applied.json().data).toMatchObject({ created: 1, updated: 0, rejected: 1 });
    const employees = await employeesOf(company.id);
    expect(employees.map((e) => [e.employee_id, e.name])).toEqual([
      ['EXAMPLE-DELETE-ME', 'Kept Name'],
      ['E0100', 'New One'],
    ]);
  });

  it("imports a previewed file from the preview's parse, classified again against the database of the moment", async () => {
    const { company, as } = await companyWithAdmin();
    const tag = `c${Date.now().toString(36)}`;
    const file = `employee_id,email,name,status\n${tag}-1,${tag}-1@example.com,One,active\n${tag}-2,,Two,active\n`;
    // The app's own previewed files (its state, from buildApp's dependencies).
    const previewedFileCount = () => t.app.deps.state.peek(PREVIEWED_FILES)?.size ?? 0;
    const held = previewedFileCount();
    const preview = await upload(as, '/preview', file);
    expect(preview.json().data.summary).toMatchObject({ create: 2, override: 0 });
    // The preview's parse is kept for the import of the same bytes (decision 0056) …
    expect(previewedFileCount()).toBe(held + 1);
    // … which classifies it again: an employee added since the preview is no longer new.
    await createEmployee(as, { employee_id: `${tag}-2`, name: 'Added meanwhile' });
    const imported = await upload(as, '', file);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().data).toMatchObject({ created: 1, updated: 1, rejected: 0 });
    expect(previewedFileCount()).toBe(held);
    expect((await employeesOf(company.id)).map((e) => [e.employee_id, e.name])).toEqual([
      [`${tag}-2`, 'Two'],
      [`${tag}-1`, 'One'],
    ]);
  });

  it('previews each row as create, override, unchanged, deactivate, keep or invalid with its reasons, writing nothing', async () => {
    const p = await mixedProgramme();
    const before = await employeesOf(p.company.id);
    const res = await upload(p.as, '/preview', p.file);
    expect(res.statusCode, res.body).toBe(200);
    const { rows, summary } = res.json().data as {
      rows: EmployeeImportRow[];
      summary: Record<string, number>;
    };
    const byLine = (line: number | null) => rows.filter((r) => r.line === line);
    expect(rows.map((r) => [r.line, r.employee_id, r.action])).toEqual([
      [2, 'KEEP', 'override'],
      [3, 'SAME', 'unchanged'],
      [4, 'OFF', 'deactivate'],
      [5, 'NEW1', 'create'],
      [6, 'NEW2', 'create'],
      [7, 'NEW1', 'invalid'],
      [8, 'NEW3', 'invalid'],
      [9, 'NEW4', 'invalid'],
      [10, 'NEW5', 'invalid'],
      [11, 'DELETED', 'invalid'],
      [12, 'E', 'invalid'],
      [null, 'GONE', 'keep'],
    ]);
    expect(byLine(2)[0]).toMatchObject({ id: p.keep.id, name: 'New name', email: null });
    expect(byLine(5)[0]).toMatchObject({
      id: null,
      status: 'active',
      email: `new1@acme-${p.tag}.example`,
    });
    expect(rows.slice(5, 11).map((r) => r.errors)).toEqual([
      { employee_id: 'v.duplicate_in_file' },
      { email: 'v.duplicate_in_file' },
      { email: 'EMAIL_EXISTING_IN_OTHER_COMPANY' },
      { email: 'EMAIL_EXISTING_IN_THIS_COMPANY' },
      { employee_id: 'EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY' },
      { employee_id: 'v.employee_id_min', email: 'v.email_invalid', status: 'v.invalid' },
    ]);
    // Missing from the file and no opt-in: listed, kept active.
    expect(byLine(null)[0]).toMatchObject({
      id: p.gone.id,
      status: 'active',
      email: `gone@acme-${p.tag}.example`,
    });
    // IDLE is already inactive: nothing to do, so it is not listed.
    expect(rows.some((r) => r.employee_id === 'IDLE')).toBe(false);
    expect(summary).toEqual({
      create: 2,
      override: 1,
      unchanged: 1,
      deactivate: 1,
      keep: 1,
      invalid: 6,
    });
    // Opted in, the missing employee is to be deactivated; nothing else differs.
    const opted = (await upload(p.as, '/preview', p.file, undefined, optIn)).json().data as {
      rows: EmployeeImportRow[];
      summary: Record<string, number>;
    };
    expect(opted.rows.slice(0, -1)).toEqual(rows.slice(0, -1));
    expect(opted.rows.at(-1)).toMatchObject({
      line: null,
      id: p.gone.id,
      status: 'inactive',
      action: 'deactivate',
    });
    expect(opted.summary).toEqual({ ...summary, deactivate: 2, keep: 0 });
    // Opted out in so many words: the same as no field.
    const optedOut = await upload(p.as, '/preview', p.file, undefined, {
      deactivate_missing: 'false',
    });
    expect(optedOut.json().data).toEqual({ rows, summary });
    expect(await employeesOf(p.company.id)).toEqual(before);
  });

  it('imports the same classification in one go, skipping the invalid rows, and deactivates nobody missing from the file unless asked', async () => {
    const p = await mixedProgramme();
    const otherBefore = await employeesOf(p.elsewhere.company.id);
    // An old-style request: the file alone, no deactivate_missing field.
    const res = await upload(p.as, '', p.file);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json().data;
    expect(result).toEqual({
      created: 2,
      updated: 1,
      unchanged: 1,
      deactivated: 1,
      skipped: 6,
      deactivate_missing: false,
      rejected: 6,
      rejected_rows: expect.any(Array),
    });
    expect(result.rejected_rows.map((r: { line: number }) => r.line)).toEqual([
      7, 8, 9, 10, 11, 12,
    ]);
    const after = new Map((await employeesOf(p.company.id)).map((e) => [e.employee_id, e]));
    expect(after.get('KEEP')).toMatchObject({ name: 'New name', status: 'active' });
    expect(after.get('SAME')).toMatchObject({ name: 'Same', email: `same@acme-${p.tag}.example` });
    expect(after.get('OFF')).toMatchObject({ name: 'Leaving', status: 'inactive' });
    // Missing from the file, and the import was not told to deactivate the missing: still active.
    expect(after.get('GONE')).toMatchObject({
      email: `gone@acme-${p.tag}.example`,
      status: 'active',
    });
    expect(after.get('IDLE')).toMatchObject({ status: 'inactive' });
    expect(after.get('NEW1')).toMatchObject({
      name: 'New One',
      email: `new1@acme-${p.tag}.example`,
      status: 'active',
      token_month: p.company.token_month,
    });
    expect(after.get('NEW2')).toMatchObject({
      status: 'inactive',
      token_month: p.company.token_month,
    });
    expect(after.has('NEW3')).toBe(false);
    expect(after.has('E')).toBe(false);
    // Another company's employees are untouched.
    expect(await employeesOf(p.elsewhere.company.id)).toEqual(otherBefore);
    // One audit row for the whole import, with its counts.
    const audit = await queryRows<{ actor_user_id: number; after: Record<string, unknown> }>(
      db(),
      sql`SELECT actor_user_id::int AS actor_user_id, after FROM audit_log
           WHERE action = 'import' AND entity_type = 'employee'
             AND after->>'company_id' = ${String(p.company.id)}`,
    );
    expect(audit).toEqual([
      {
        actor_user_id: p.as.user.id,
        after: {
          company_id: p.company.id,
          file_name: 'employees.csv',
          deactivate_missing: false,
          created: 2,
          updated: 1,
          unchanged: 1,
          deactivated: 1,
          kept: 1,
          rejected: 6,
        },
      },
    ]);
    // Previewed again: every valid row is now unchanged, GONE is still missing and kept.
    const again = (await upload(p.as, '/preview', p.file)).json().data.summary;
    expect(again).toEqual({
      create: 0,
      override: 0,
      unchanged: 5,
      deactivate: 0,
      keep: 1,
      invalid: 6,
    });
    // Opted in, the same file now deactivates exactly the employee missing from it.
    const opted = await upload(p.as, '', p.file, undefined, optIn);
    expect(opted.json().data).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 5,
      deactivated: 1,
      skipped: 6,
      deactivate_missing: true,
      rejected: 6,
    });
    const final = await employeesOf(p.company.id);
    const inactive = final.filter((e) => !e.deleted && e.status === 'inactive');
    expect(inactive.map((e) => e.employee_id)).toEqual(['OFF', 'GONE', 'IDLE', 'NEW2']);
    expect(await employeesOf(p.elsewhere.company.id)).toEqual(otherBefore);
    await assertLedgerInvariants(db());
  });

  it('counts created, updated, unchanged, deactivated and skipped exactly, each employee once', async () => {
    const { company, as } = await companyWithAdmin();
    const tag = crypto.randomBytes(3).toString('hex');
    await createEmployee(as, { employee_id: 'U1', name: 'Same', email: `u1@c-${tag}.example` });
    await createEmployee(as, { employee_id: 'U2', name: 'Same too' });
    await createEmployee(as, { employee_id: 'R1', name: 'Rename me' });
    await createEmployee(as, { employee_id: 'M1', email: `m1@c-${tag}.example` });
    await createEmployee(as, { employee_id: 'BACK', status: 'inactive' });
    await createEmployee(as, { employee_id: 'D1', name: 'Leaving' });
    await createEmployee(as, { employee_id: 'IDLE', name: 'Idle', status: 'inactive' });
    await createEmployee(as, { employee_id: 'MISS1' });
    await createEmployee(as, { employee_id: 'MISS2' });
    await createEmployee(as, { employee_id: 'MISS3', status: 'inactive' });
    const file = [
      'employee_id,email,name,status',
      `U1,u1@c-${tag}.example,Same,active`, // unchanged: every value the same
      'U2,,,', // unchanged: empty cells keep the values, empty status is active
      'R1,,Renamed,active', // updated: the name
      `M1,M1@c-${tag}.example,,active`, // updated: the email's case is a change
      'BACK,,,active', // updated: reactivated
      'D1,,Leaving,inactive', // deactivated by its row
      'IDLE,,Idle,inactive', // unchanged: already inactive
      'N1,,New,', // created
      'N2,,,inactive', // created
      'N1,,Twice,', // skipped: repeated
      ',,No id,', // skipped: no staff number
    ].join('\n');
    const expected = { created: 2, updated: 3, unchanged: 3, skipped: 2, rejected: 2 };
    const preview = await upload(as, '/preview', file, undefined, optIn);
    expect(preview.json().data.summary).toEqual({
      create: 2,
      override: 3,
      unchanged: 3,
      deactivate: 3,
      keep: 0,
      invalid: 2,
    });
    const res = await upload(as, '', file, undefined, optIn);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      ...expected,
      deactivated: 3,
      deactivate_missing: true,
    });
    const status = new Map((await employeesOf(company.id)).map((e) => [e.employee_id, e.status]));
    expect(Object.fromEntries(status)).toEqual({
      U1: 'active',
      U2: 'active',
      R1: 'active',
      M1: 'active',
      BACK: 'active',
      D1: 'inactive',
      IDLE: 'inactive',
      MISS1: 'inactive',
      MISS2: 'inactive',
      MISS3: 'inactive',
      N1: 'active',
      N2: 'inactive',
    });
    // The same file again changes nothing, and says so.
    const again = await upload(as, '', file, undefined, optIn);
    expect(again.json().data).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 9,
      deactivated: 0,
      skipped: 2,
      rejected: 2,
    });
  });

  it('refuses a deactivate_missing that is neither true nor false, before reading the rows', async () => {
    const { company, as } = await companyWithAdmin();
    await createEmployee(as, { employee_id: 'STAY' });
    for (const path of ['/preview', ''] as const) {
      for (const value of ['yes', 'on', '1', '']) {
        const res = await upload(as, path, 'employee_id\nNEW\n', undefined, {
          deactivate_missing: value,
        });
        expect(res.statusCode, `${path} ${value} ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'BODY_INVALID',
          metadata: { deactivate_missing: expect.any(String) },
        });
      }
    }
    expect((await employeesOf(company.id)).map((e) => [e.employee_id, e.status])).toEqual([
      ['STAY', 'active'],
    ]);
  });

  it('reads a UTF-8 BOM, CRLF line ends and quoted fields with commas, quotes and newlines', async () => {
    const { company, as } = await companyWithAdmin();
    const file =
      '\uFEFFEMPLOYEE_ID,Name,Email\r\n' +
      '"Q001","Lovelace, Ada","ada@q.example"\r\n' +
      'Q002,"Grace ""Amazing""\r\nHopper",\r\n' +
      'Q003,"Zoë Ñúñez",\r\n' +
      // What an array literal would misread, unless each element is quoted and escaped.
      'Q004,NULL,\r\n' +
      'Q005,"Back\\slash {braces, and} ""quotes""",\r\n';
    const res = await upload(as, '', file);
    expect(res.json().data).toMatchObject({ created: 5, rejected: 0 });
    expect((await employeesOf(company.id)).map((e) => [e.employee_id, e.name, e.email])).toEqual([
      ['Q001', 'Lovelace, Ada', 'ada@q.example'],
      ['Q002', 'Grace "Amazing"\r\nHopper', null],
      ['Q003', 'Zoë Ñúñez', null],
      ['Q004', 'NULL', null],
      ['Q005', 'Back\\slash {braces, and} "quotes"', null],
    ]);
  });

  it('refuses each bad file with a clear code', async () => {
    const { as } = await companyWithAdmin();
    const cases: [string | Buffer, number, string, RegExp?][] = [
      ['', 400, 'EMPTY_FILE'],
      ['employee_id,email,name,status\r\n', 400, 'EMPTY_FILE'],
      [
        Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0]),
        400,
        'FILE_INVALID',
        /binary/,
      ],
      [Buffer.from('employee_id,name\nE001,Fran\xe7ois\n', 'latin1'), 400, 'FILE_INVALID', /UTF-8/],
      ['name,email\nAda,ada@x.example\n', 400, 'FILE_INVALID', /employee_id/],
      ['employee_id,phone\nE001,123\n', 400, 'FILE_INVALID', /phone/],
      [Buffer.alloc(EMPLOYEE_IMPORT_MAX_BYTES + 1, 'a'), 413, 'FILE_TOO_LARGE', /10 MB/],
      [
        [
          'employee_id',
          ...Array.from({ length: EMPLOYEE_IMPORT_MAX_ROWS + 1 }, (_, i) => `R${i}`),
        ].join('\n'),
        413,
        'FILE_TOO_LARGE',
        new RegExp(String(EMPLOYEE_IMPORT_MAX_ROWS)),
      ],
    ];
    for (const [content, status, code, message] of cases) {
      for (const path of ['/preview', ''] as const) {
        const res = await upload(as, path, content);
        expect(res.statusCode, `${code} ${res.body.slice(0, 200)}`).toBe(status);
        expect(res.json().code).toBe(code);
        if (message) expect(res.json().message).toMatch(message);
      }
    }
    const noFile = await upload(as, '/preview', 'employee_id\nE001\n', 'attachment');
    expect(noFile.json()).toMatchObject({
      code: 'BODY_INVALID',
      metadata: { file: 'Choose a file' },
    });
    const json = await injectAs(t.app, as.session, {
      method: 'POST',
      url: '/api/v1/employees/import/preview',
      payload: { file: 'employee_id\nE001' },
    });
    expect(json.statusCode).toBe(415);
  });

  it('answers a preview of several chunks of rows as the JSON the contract describes', async () => {
    const { as } = await companyWithAdmin();
    const leaving = await createEmployee(as, { employee_id: 'LEAVING', name: 'Not in the file' });
    const count = PREVIEW_CHUNK_ROWS * 2 + 500;
    const lines = ['employee_id,email,name,status'];
    for (let i = 0; i < count; i += 1) {
      const n = String(i).padStart(5, '0');
      // Every 7th row is invalid, so rows with and without errors meet at chunk boundaries.
      lines.push(i % 7 === 6 ? `C${n},not-an-email,,` : `C${n},c${n}@chunks.example,"C, ${n}",`);
    }
    const res = await upload(as, '/preview', lines.join('\n'));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(res.body) as { data: EmployeeImportPreview };
    // Exactly the contract's shape: parsing drops nothing and changes nothing.
    expect(dataOf(employeeImportPreviewSchema).parse(body)).toEqual(body);
    const { rows, summary } = body.data;
    expect(rows.map((r) => r.line)).toEqual([
      ...Array.from({ length: count }, (_, i) => i + 2),
      null,
    ]);
    expect(rows[7]).toEqual({
      line: 9,
      id: null,
      employee_id: 'C00007',
      email: 'c00007@chunks.example',
      name: 'C, 00007',
      status: 'active',
      action: 'create',
    });
    expect(rows[6]).toMatchObject({ action: 'invalid', errors: { email: 'v.email_invalid' } });
    expect(rows.at(-1)).toMatchObject({ id: leaving.id, action: 'keep' });
    const invalid = Math.floor(count / 7);
    expect(summary).toEqual({
      create: count - invalid,
      override: 0,
      unchanged: 0,
      deactivate: 0,
      keep: 1,
      invalid,
    });
  });

  it('is for company admins only', async () => {
    for (const path of ['/preview', ''] as const) {
      expect((await upload(admin, path, 'employee_id\nE001\n')).statusCode).toBe(403);
    }
    const template = await injectAs(t.app, admin.session, {
      url: '/api/v1/employees/import/template',
    });
    expect(template.statusCode).toBe(403);
  });

  it('imports a 10,000-row file in one go, and counts its re-import as unchanged', async () => {
    // More rows than one statement takes: every slice must land.
    expect(10_000).toBeGreaterThan(IMPORT_SLICE_ROWS);
    const { company, as } = await companyWithAdmin();
    const lines = ['employee_id,email,name,status'];
    for (let i = 0; i < 10_000; i += 1) {
      const n = String(i).padStart(5, '0');
      lines.push(
        `B${n},${i % 2 === 0 ? `b${n}@bulk.example` : ''},"Bulk, ${n}",${i % 10 === 9 ? 'inactive' : 'active'}`,
      );
    }
    const file = lines.join('\r\n');
    const res = await upload(as, '', file);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json().data).toMatchObject({
      created: 10_000,
      updated: 0,
      deactivated: 0,
      rejected: 0,
    });
    const [counts] = await queryRows<{ n: number; inactive: number; emails: number }>(
      db(),
      sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'inactive')::int AS inactive,
                 count(email)::int AS emails
            FROM employees WHERE company_id = ${company.id}`,
    );
    expect(counts).toEqual({ n: 10_000, inactive: 1_000, emails: 5_000 });
    const sample = await queryRows<StoredEmployee>(
      db(),
      sql`SELECT employee_id, name, email, status, token_month FROM employees
           WHERE company_id = ${company.id} AND employee_id IN ('B00000', 'B04321', 'B09999')
           ORDER BY employee_id`,
    );
    expect(sample).toEqual([
      {
        employee_id: 'B00000',
        name: 'Bulk, 00000',
        email: 'b00000@bulk.example',
        status: 'active',
        token_month: company.token_month,
      },
      {
        employee_id: 'B04321',
        name: 'Bulk, 04321',
        email: null,
        status: 'active',
        token_month: company.token_month,
      },
      {
        employee_id: 'B09999',
        name: 'Bulk, 09999',
        email: null,
        status: 'inactive',
        token_month: company.token_month,
      },
    ]);
    const again = await upload(as, '', file);
    expect(again.json().data).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 10_000,
      deactivated: 0,
      skipped: 0,
      rejected: 0,
    });
  });

  it("leaves an import's search-index entries pending for its transaction, and merges them after the commit", async () => {
    const { company, as } = await companyWithAdmin();
    /** Pages the default pending list (4 MB) may hold before an insert merges it. */
    const [defaultList] = await queryRows<{ pages: number }>(
      db(),
      sql`SELECT (pg_size_bytes(current_setting('gin_pending_list_limit'))
                  / current_setting('block_size')::int)::int AS pages`,
    );
    const defaultListPages = defaultList!.pages;
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      employee_id: `P${String(i).padStart(5, '0')}`,
      email: `pending.person.${i}@pending-${company.code.toLowerCase()}.example`,
      name: `Pending Person Number ${i}`,
      status: 'active' as const,
    }));
    /** Inserts the rows and answers the pages left pending, then rolls it all back. */
    const pendingAfterInsert = async (deferred: boolean) => {
      let pages = -1;
      await db()
        .transaction(async (tx) => {
          if (deferred) await deferSearchIndexMerge(tx);
          await insertImportedEmployees(tx, company.id, company.token_month, rows, new Date());
          pages = await mergeSearchIndexEntries(tx);
          tx.rollback();
        })
        .catch((error: unknown) => {
          if (!(error instanceof TransactionRollbackError)) throw error;
        });
      return pages;
    };
    await mergeSearchIndexEntries(db());
    // With the default list, the insert merged as it went; deferred, all 10,000 rows wait.
    expect(await pendingAfterInsert(false)).toBeLessThanOrEqual(defaultListPages);
    expect(await pendingAfterInsert(true)).toBeGreaterThan(defaultListPages);
    expect(await employeesOf(company.id)).toEqual([]);

    // Through the route: after the answer, the merge runs, and leaves nothing pending.
    const file = [
      'employee_id,email,name,status',
      ...rows.slice(0, 1_000).map((r) => `${r.employee_id},${r.email},${r.name},active`),
    ].join('\r\n');
    const res = await upload(as, '', file);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json().data).toMatchObject({ created: 1_000 });
    await t.app.deps.state.peek(SEARCH_INDEX_MERGES)?.last;
    expect(await mergeSearchIndexEntries(db())).toBe(0);
    // The merged entries find the employees.
    const search = await injectAs(t.app, as.session, {
      url: '/api/v1/employees?search=person%20number%2099&page_size=50',
    });
    expect(search.statusCode, search.body).toBe(200);
    expect(
      (search.json().data as { employee_id: string }[]).map((e) => e.employee_id).sort(),
    ).toEqual(['P00099', ...Array.from({ length: 10 }, (_, i) => `P0099${i}`)]);
  });
});
