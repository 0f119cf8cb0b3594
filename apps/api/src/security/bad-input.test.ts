// Hostile input (issue 7): bodies too big, too deep or too wide, the wrong content type, numbers
// beyond 2^53 and token amounts that are not positive whole numbers, text PostgreSQL cannot store,
// URLs the router cannot decode, and employee CSV files that are binary, mis-encoded, enormous,
// full of formulas or of 1,000-character fields. Every one is refused with the error envelope,
// nothing is half-written, and the ledger invariants hold.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EMPLOYEE_IMPORT_MAX_BYTES,
  IDEMPOTENCY_KEY_HEADER,
  type Company,
  type Employee,
} from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { injectAs, type TestSession } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { envelopeProblem, multipart } from '../../test/http';
import { assertLedgerInvariants } from '../../test/invariants';
import { newEmployee, newTerminal, type TestTerminal } from '../../test/ledger';
import { newCompany, signedIn } from '../../test/management';
import { queryRows } from '../db/client';
import { issueToCompany, distributeToEmployees } from '../modules/tokens';

type Method = 'POST' | 'PUT' | 'PATCH';
const MiB = 1024 * 1024;
const MAX = Number.MAX_SAFE_INTEGER;

describe.each(await testDatabaseKinds())('hostile input on %s', (kind) => {
  let t: TestApp;
  let admin: TestSession;
  let companyAdmin: TestSession;
  let company: Company;
  let employee: Employee;
  let terminal: TestTerminal;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const deps = t.app.deps;
    company = await newCompany(t, null, 1_000);
    employee = await newEmployee(deps, company.id);
    terminal = await newTerminal(deps);
    await issueToCompany(deps, null, { company_id: company.id, amount: 1_000 });
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 500 }],
    });
    admin = (await signedIn(t, 'admin')).session;
    companyAdmin = (await signedIn(t, 'company_admin', { companyId: company.id })).session;
  });
  afterAll(() => t.close());

  /** Everything a refused write could have touched. */
  const footprint = async () =>
    (
      await queryRows<Record<string, unknown>>(
        t.db.database.db,
        sql`SELECT (SELECT count(*) FROM token_transactions)::int AS ledger,
                   (SELECT count(*) FROM orders)::int AS orders,
                   (SELECT count(*) FROM employees)::int AS employees,
                   (SELECT count(*) FROM audit_log)::int AS audit,
                   (SELECT coalesce(sum(token_balance), 0)::text FROM companies) AS companies,
                   (SELECT coalesce(sum(available_tokens), 0)::text FROM employees) AS wallets`,
      )
    )[0];

  /** A JSON write as the caller the route wants: admin, company admin or the terminal. */
  function write(url: string, payload: string, headers: Record<string, string> = {}) {
    const contentType = { 'content-type': 'application/json', ...headers };
    if (url === '/api/v1/orders' || url.includes('/refund')) {
      return t.app.inject({
        method: 'POST',
        url,
        payload,
        headers: {
          authorization: `Bearer ${terminal.key}`,
          [IDEMPOTENCY_KEY_HEADER]: crypto.randomUUID(),
          ...contentType,
        },
      });
    }
    const session = url.includes('/employees') ? companyAdmin : admin;
    return injectAs(t.app, session, {
      method: 'POST' as Method,
      url,
      payload,
      headers: contentType,
    });
  }

  const WRITES = [
    '/api/v1/tokens/topup-token',
    '/api/v1/tokens/topup-token/employees',
    '/api/v1/employees',
    '/api/v1/orders',
    '/api/v1/iam/login',
  ];

  it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE on every kind of write', async () => {
    const before = await footprint();
    const huge = JSON.stringify({ note: 'x'.repeat(MiB) });
    for (const url of WRITES) {
      const res = await write(url, huge);
      expect(res.statusCode, url).toBe(413);
      expect(res.json(), url).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect(envelopeProblem(res)).toBeNull();
    }
    expect(await footprint()).toEqual(before);
  });

  it('refuses JSON nested 100,000 deep, as arrays or objects, with 400 and no crash', async () => {
    const depth = 100_000;
    const arrays = '['.repeat(depth) + ']'.repeat(depth);
    const objects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    for (const url of WRITES) {
      for (const body of [arrays, objects, `{"amount":${arrays}}`]) {
        const res = await write(url, body);
        expect(res.statusCode, `${url} ${body.slice(0, 20)}`).toBe(400);
        expect(envelopeProblem(res)).toBeNull();
      }
    }
    // The server still answers.
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it('refuses wide bodies under the size limit: 25,000 items, a 900 kB note', async () => {
    const before = await footprint();
    const items = Array.from({ length: 25_000 }, (_, i) => ({ employee_id: i + 1, amount: 1 }));
    const wide = await write('/api/v1/tokens/topup-token/employees', JSON.stringify({ items }));
    expect(wide.statusCode).toBe(400);
    expect(wide.json()).toMatchObject({
      code: 'BODY_INVALID',
      metadata: { items: expect.any(String) },
    });
    const note = await write(
      '/api/v1/tokens/topup-token',
      JSON.stringify({ company_id: company.id, amount: 1, note: 'n'.repeat(900_000) }),
    );
    expect(note.json()).toMatchObject({
      code: 'BODY_INVALID',
      metadata: { note: expect.any(String) },
    });
    expect(await footprint()).toEqual(before);
  });

  it('refuses every content type but JSON on JSON routes (415), and broken or empty JSON (400)', async () => {
    const before = await footprint();
    const body = JSON.stringify({ company_id: company.id, amount: 5 });
    for (const type of [
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'text/csv',
    ]) {
      const res = await write('/api/v1/tokens/topup-token', body, { 'content-type': type });
      // text/plain above all: a cross-site form may send it without a CORS preflight.
      expect(res.statusCode, type).toBe(415);
      expect(res.json(), type).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    for (const broken of ['{"company_id": 1,', '', 'null', '"text"', '[1,2]', '{"a":1}{"b":2}']) {
      const res = await write('/api/v1/tokens/topup-token', broken);
      expect(res.statusCode, broken).toBe(400);
      expect(res.json(), broken).toMatchObject({ code: 'BODY_INVALID' });
    }
    // And the multipart import refuses JSON.
    const json = await injectAs(t.app, companyAdmin, {
      method: 'POST',
      url: '/api/v1/employees/import',
      payload: { file: 'employee_id\nE001' },
    });
    expect(json.statusCode).toBe(415);
    expect(await footprint()).toEqual(before);
  });

  it('refuses token amounts that are not positive whole numbers within 2^53 − 1, writing nothing', async () => {
    const before = await footprint();
    const wrong = [
      '0',
      '-1',
      '-0',
      '1.5',
      '0.1',
      '1e-7',
      '-9007199254740991',
      '9007199254740992',
      '9007199254740993',
      '18446744073709551616',
      '1e21',
      '1e400',
      '-1e400',
      '"10"',
      'null',
      'true',
      '[5]',
      '{"value":5}',
    ];
    const PAST_MAX = ['9007199254740992', '9007199254740993', '18446744073709551616', '1e21'];
    const cases: [string, (amount: string) => string, string][] = [
      ['/api/v1/tokens/topup-token', (a) => `{"company_id":${company.id},"amount":${a}}`, 'amount'],
      [
        '/api/v1/tokens/topup-token/employees',
        (a) => `{"items":[{"employee_id":${employee.id},"amount":${a}}]}`,
        'items.0.amount',
      ],
      [
        '/api/v1/orders',
        (a) =>
          `{"company_code":"${company.code}","employee_id":"${employee.employee_id}",` +
          `"order_type":"dine_in","items":[{"name":"Tea","quantity":1,"unit_tokens":${a}}]}`,
        'items.0.unit_tokens',
      ],
      [
        '/api/v1/orders',
        (a) =>
          `{"company_code":"${company.code}","employee_id":"${employee.employee_id}",` +
          `"order_type":"dine_in","items":[{"name":"Tea","quantity":${a},"unit_tokens":1}]}`,
        'items.0.quantity',
      ],
    ];
    for (const [url, body, field] of cases) {
      // A free item (unit_tokens 0) is allowed; an order of nothing but free items is not.
      const amounts = field.endsWith('unit_tokens')
        ? wrong.filter((a) => a !== '0' && a !== '-0')
        : wrong;
      for (const amount of amounts) {
        const res = await write(url, body(amount));
        // A whole amount past 2^53 - 1 has its own code (issue 14); a quantity is only out of range.
        const tooLarge = PAST_MAX.includes(amount) && !field.endsWith('quantity');
        expect(res.statusCode, `${url} ${amount}`).toBe(tooLarge ? 422 : 400);
        expect(res.json().code, `${url} ${amount}`).toBe(
          tooLarge ? 'AMOUNT_TOO_LARGE' : 'BODY_INVALID',
        );
        expect(Object.keys(res.json().metadata ?? {}), `${url} ${amount}`).toContain(field);
      }
    }
    // A quantity × price past 2^53 is refused as a whole, however small each part is.
    const overflow = await write(
      '/api/v1/orders',
      JSON.stringify({
        company_code: company.code,
        employee_id: employee.employee_id,
        order_type: 'dine_in',
        items: [{ name: 'Gold', quantity: 10_000, unit_tokens: Math.floor(MAX / 5_000) }],
      }),
    );
    expect(overflow.json()).toMatchObject({ code: 'AMOUNT_TOO_LARGE' });
    expect(await footprint()).toEqual(before);
    await assertLedgerInvariants(t.db.database.db);
  });

  it('refuses text with a NUL character (which PostgreSQL cannot store) with 400 naming the field', async () => {
    const before = await footprint();
    const body = await injectAs(t.app, companyAdmin, {
      method: 'POST',
      url: '/api/v1/employees',
      payload: { employee_id: 'NUL01', name: 'a\u0000b', status: 'active' },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toMatchObject({
      code: 'BODY_INVALID',
      metadata: { name: 'Enter a valid value' },
    });
    const key = await injectAs(t.app, admin, {
      method: 'POST',
      url: '/api/v1/tokens/topup-token',
      payload: { company_id: company.id, amount: 1, ['no\u0000te']: 'x' },
    });
    expect(key.json()).toMatchObject({ code: 'BODY_INVALID' });
    for (const url of [
      '/api/v1/companies?search=%00',
      '/api/v1/employees?search=a%00b',
      '/api/v1/tokens/transactions?cursor=%00',
      '/api/v1/audit-log?entity_id=%00',
    ]) {
      const res = await injectAs(t.app, url.includes('/employees') ? companyAdmin : admin, { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code, url).toBe('QUERY_PARAM_INVALID');
    }
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/iam/login',
      payload: { username: 'admin\u0000', password: 'Passw0rd!' },
    });
    expect(login.statusCode).toBe(400);
    expect(await footprint()).toEqual(before);
  });

  it('refuses text holding a lone surrogate (which jsonb cannot store) with 400 naming the field; a pair is text', async () => {
    const before = await footprint();
    // JSON can spell half a surrogate pair; JSON.stringify writes it back as "\ud800", which
    // jsonb refuses: the order's items, an approval's payload and the audit row are jsonb.
    const cases: [string, string, string][] = [
      [
        '/api/v1/orders',
        `{"company_code":"${company.code}","employee_id":"${employee.employee_id}",` +
          `"order_type":"dine_in","items":[{"name":"Tea \\ud800","quantity":1,"unit_tokens":1}]}`,
        'items.0.name',
      ],
      [
        '/api/v1/tokens/topup-token',
        `{"company_id":${company.id},"amount":1,"note":"\\udc00 late half"}`,
        'note',
      ],
      ['/api/v1/iam/login', '{"username":"x\\ud800y","password":"Passw0rd!"}', 'username'],
    ];
    for (const [url, body, field] of cases) {
      const res = await write(url, body);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ code: 'BODY_INVALID' });
      expect(Object.keys(res.json().metadata ?? {}), url).toEqual([field]);
    }
    expect(await footprint()).toEqual(before);
    // A whole pair is one character (an emoji), stored as it is.
    const pair = await write(
      '/api/v1/tokens/topup-token',
      `{"company_id":${company.id},"amount":1,"note":"lunch \\ud83d\\ude00"}`,
    );
    expect(pair.statusCode).toBe(200);
    const [row] = await queryRows<{ note: string }>(
      t.db.database.db,
      sql`SELECT note FROM token_transactions WHERE id = ${pair.json().data.transaction_id}`,
    );
    expect(row!.note).toBe('lunch \u{1f600}');
    await assertLedgerInvariants(t.db.database.db);
  });

  it('answers a URL the router cannot decode, or an oversized path parameter, with the envelope', async () => {
    for (const url of [
      '/api/v1/employees/%C0%AF',
      '/api/v1/companies/%E0%A4%A',
      '/api/v1/nowhere/%FF',
      `/api/v1/companies/${'9'.repeat(250)}`,
    ]) {
      const res = await injectAs(t.app, admin, { url });
      expect(res.statusCode, url).toBe(400);
      expect(envelopeProblem(res), url).toBeNull();
      expect(res.json().code, url).toBe('QUERY_PARAM_INVALID');
      // Fastify's own message would echo the path back; ours does not.
      expect(res.body, url).not.toContain('%');
    }
  });

  describe('employee CSV files', () => {
    const upload = (path: '/preview' | '', content: string | Buffer) =>
      injectAs(t.app, companyAdmin, {
        method: 'POST',
        url: `/api/v1/employees/import${path}`,
        ...multipart(content),
      });
    const employeesOfCompany = async () =>
      (
        await queryRows<{ n: number }>(
          t.db.database.db,
          sql`SELECT count(*)::int AS n FROM employees WHERE company_id = ${company.id}`,
        )
      )[0]!.n;

    it('refuses binary, mis-encoded and UTF-16 files as FILE_INVALID, writing nothing', async () => {
      const before = await employeesOfCompany();
      const files: [string, Buffer][] = [
        ['PNG', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])],
        ['random high bytes', Buffer.from(Array.from({ length: 512 }, (_, i) => 0x80 + (i % 120)))],
        ['UTF-16LE with BOM', Buffer.from('\uFEFFemployee_id\r\nE001\r\n', 'utf16le')],
        ['Windows-1252', Buffer.from('employee_id,name\r\nE001,\x93quoted\x94\r\n', 'latin1')],
        ['overlong UTF-8', Buffer.from([...Buffer.from('employee_id\nE'), 0xc0, 0xaf, 0x0a])],
        ['truncated UTF-8', Buffer.from([...Buffer.from('employee_id\nE00'), 0xe6, 0x97])],
      ];
      for (const [what, file] of files) {
        for (const path of ['/preview', ''] as const) {
          const res = await upload(path, file);
          expect(res.statusCode, what).toBe(400);
          expect(res.json().code, what).toBe('FILE_INVALID');
        }
      }
      expect(await employeesOfCompany()).toBe(before);
    });

    it('refuses 1,000-character cells row by row, importing the good rows only', async () => {
      const long = 'L'.repeat(1_000);
      const file = [
        'employee_id,email,name,status',
        `${long},,,`,
        `LONG02,${long.slice(12)}@example.com,,`,
        `LONG03,,${long},`,
        `LONG04,,,${long}`,
        'LONG05,,Fine,active',
      ].join('\r\n');
      const preview = await upload('/preview', file);
      expect(preview.statusCode).toBe(200);
      const rows = preview.json().data.rows as {
        line: number | null;
        action: string;
        errors?: object;
      }[];
      const fromFile = rows.filter((r) => r.line !== null);
      expect(fromFile.map((r) => r.action)).toEqual([
        'invalid',
        'invalid',
        'invalid',
        'invalid',
        'create',
      ]);
      const before = await employeesOfCompany();
      const done = await upload('', file);
      expect(done.json().data).toMatchObject({ created: 1, rejected: 4 });
      expect(await employeesOfCompany()).toBe(before + 1);
      // A 1,000-character column name is an unknown column.
      const header = await upload('', `employee_id,${long}\nE001,x\n`);
      expect(header.json().code).toBe('FILE_INVALID');
      // The message names the column but is not an echo of a megabyte of it.
      expect(header.body.length).toBeLessThan(3_000);
    });

    it('refuses a file with one cell nearly the size limit as FILE_CELL_TOO_LONG, and a byte over it as 413', async () => {
      const before = await employeesOfCompany();
      const cell = 'C'.repeat(EMPLOYEE_IMPORT_MAX_BYTES - 1024);
      const big = await upload('', `employee_id,name\nBIG01,${cell}\n`);
      expect(big.statusCode).toBe(400);
      expect(big.json().code).toBe('FILE_CELL_TOO_LONG');
      expect(big.body.length).toBeLessThan(500);
      // An unclosed quote swallowing the rest of the file.
      const quoted = await upload('/preview', `employee_id,name\n"${cell}`);
      expect(quoted.statusCode).toBe(400);
      expect(envelopeProblem(quoted)).toBeNull();
      const over = await upload('', Buffer.alloc(EMPLOYEE_IMPORT_MAX_BYTES + 1, 'a'));
      expect(over.statusCode).toBe(413);
      expect(over.json().code).toBe('FILE_TOO_LARGE');
      expect(await employeesOfCompany()).toBe(before);
    });

    it('stores formula cells as text and defuses them in the CSV export', async () => {
      const formulas = ['=1+1', '+SUM(A1:A9)', '-2+3', '@cmd', '\t=1', '=HYPERLINK("http://x")'];
      const file = [
        'employee_id,email,name,status',
        ...formulas.map((f, i) => `FORM${i},,"${f.replace(/"/g, '""')}",active`),
      ].join('\r\n');
      const res = await upload('', file);
      expect(res.json().data).toMatchObject({ created: formulas.length, rejected: 0 });
      const list = await injectAs(t.app, companyAdmin, {
        url: '/api/v1/employees?search=FORM&page_size=50',
      });
      expect((list.json().data as { name: string }[]).map((e) => e.name).sort()).toEqual(
        [...formulas].sort(),
      );
      const exported = await injectAs(t.app, companyAdmin, { url: '/api/v1/exports/employees' });
      expect(exported.statusCode).toBe(200);
      const cells = parse(exported.body, { bom: true, columns: true }) as { name: string }[];
      const names = cells.map((c) => c.name).filter((n) => n && /FORM|[=+\-@]/.test(n));
      expect(names.length).toBeGreaterThanOrEqual(formulas.length);
      for (const name of names) expect(name, name).toMatch(/^'/);
    });
  });
});

describe.each(await testDatabaseKinds())('totals past 2^53 on %s', (kind) => {
  let t: TestApp;
  let admin: TestSession;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedIn(t, 'admin')).session;
  });
  afterAll(() => t.close());

  it('keeps each wallet within 2^53 − 1 and answers a larger total with 422 TOTAL_TOO_LARGE', async () => {
    const issue = (companyId: number, amount: number) =>
      injectAs(t.app, admin, {
        method: 'POST',
        url: '/api/v1/tokens/topup-token',
        payload: { company_id: companyId, amount },
      });
    const one = await newCompany(t);
    const two = await newCompany(t);
    expect((await issue(one.id, MAX - 1)).statusCode).toBe(200);
    expect((await issue(one.id, 1)).json().data.token_balance).toBe(MAX);
    const past = await issue(one.id, 1);
    expect(past.statusCode).toBe(422);
    expect(past.json().code).toBe('AMOUNT_TOO_LARGE');
    expect(envelopeProblem(past)).toBeNull();
    expect((await issue(two.id, MAX)).statusCode).toBe(200);

    // One company's totals are exact …
    const own = await injectAs(t.app, admin, { url: `/api/v1/dashboard?company_id=${one.id}` });
    expect(own.json().data.totals.tokens_from_admin).toBe(MAX);
    // … the sum over both is not representable: refused, never rounded or a 500.
    for (const url of [
      '/api/v1/dashboard/summary',
      '/api/v1/dashboard',
      '/api/v1/reports/summary',
    ]) {
      const res = await injectAs(t.app, admin, { url });
      expect(res.statusCode, url).toBe(422);
      expect(res.json(), url).toMatchObject({ code: 'TOTAL_TOO_LARGE' });
    }
    await assertLedgerInvariants(t.db.database.db);
  });
});
