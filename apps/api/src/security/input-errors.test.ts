// Issue 14 (items 3 and 6): no input produces a 5xx, one parser for days, months and cursors on
// every route, refusals whose code and message say what went wrong, HTTP the server cannot read
// answered in the envelope, client errors never logged as errors, and an import preview that
// never echoes a huge cell or header back. Each finding of the outside assessment is one test.
import crypto from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  VALIDATION_MESSAGES,
  orderCursor,
  transactionCursor,
  type Company,
  type Employee,
} from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { injectAs, type TestSession } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { envelopeProblem, multipart } from '../../test/http';
import { newEmployee, newTerminal, type TestTerminal } from '../../test/ledger';
import { newCompany, signedIn } from '../../test/management';
import { issueToCompany } from '../modules/tokens';

/** A pino destination that keeps every line, parsed. */
class Capture extends Writable {
  entries: { level: number; msg?: string; [key: string]: unknown }[] = [];
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    const text = chunk.toString('utf8');
    this.text += text;
    for (const line of text.split('\n').filter(Boolean)) this.entries.push(JSON.parse(line));
    done();
  }
}

const en = (key: keyof typeof VALIDATION_MESSAGES) => VALIDATION_MESSAGES[key].en;
const b64 = (text: string) => Buffer.from(text).toString('base64url');
const MAX = Number.MAX_SAFE_INTEGER;

/** Every list and export that filters by day, with the role allowed to read it. */
const DATED = [
  '/api/v1/tokens/transactions',
  '/api/v1/exports/transactions',
  '/api/v1/orders/admin',
  '/api/v1/exports/orders',
  '/api/v1/audit-log',
];
/** Every read that takes a month (the company report's id is filled in). */
const MONTHLY = [
  '/api/v1/dashboard',
  '/api/v1/dashboard/summary',
  '/api/v1/reports/summary',
  '/api/v1/reports/summary/:company',
  '/api/v1/exports/summary',
  '/api/v1/exports/summary/:company',
];

describe.each(await testDatabaseKinds())('input errors on %s', (kind) => {
  let t: TestApp;
  let admin: TestSession;
  let company: Company;
  let employee: Employee;
  let terminal: TestTerminal;
  const capture = new Capture();

  beforeAll(async () => {
    // West of UTC, the end of 9999-12-31 falls in year 10000: the worst case for the SQL bound.
    t = await createTestApp(
      kind,
      { APP_TIMEZONE: 'America/Los_Angeles' },
      {
        logger: { stream: capture, level: 'info' },
        beforeReady: (app) => {
          app.get('/api/v1/probe/crash', { config: { public: true } }, async () => {
            throw new Error('boom: SELECT secret_column FROM hidden_table');
          });
        },
      },
    );
    company = await newCompany(t, null, 1_000);
    employee = await newEmployee(t.app.deps, company.id);
    terminal = await newTerminal(t.app.deps);
    admin = (await signedIn(t, 'admin')).session;
  });
  afterAll(() => t.close());

  const get = (url: string) =>
    injectAs(t.app, admin, { url: url.replace(':company', String(company.id)) });

  it('accepts date_to=9999-12-31 on every dated list and export without overflowing the SQL', async () => {
    for (const url of DATED) {
      for (const query of ['date_to=9999-12-31', 'date_from=9999-12-31&date_to=9999-12-31']) {
        const res = await get(`${url}?${query}`);
        expect(res.statusCode, `${url}?${query} ${res.body.slice(0, 200)}`).toBe(200);
      }
      const earliest = await get(`${url}?date_from=1970-01-01`);
      expect(earliest.statusCode, url).toBe(200);
    }
  });

  it('answers month=9999-12 on the dashboard and every report without a 5xx', async () => {
    for (const url of MONTHLY) {
      for (const month of ['9999-12', '1970-01']) {
        const res = await get(`${url}?month=${month}`);
        expect(res.statusCode, `${url} ${month} ${res.body.slice(0, 200)}`).toBe(200);
      }
    }
  });

  it('refuses impossible days and years outside 1970–9999 the same way on every dated route', async () => {
    const cases: [string, string][] = [
      ['2026-02-31', en('v.date_not_in_calendar')],
      ['2026-02-29', en('v.date_not_in_calendar')],
      ['2026-04-31', en('v.date_not_in_calendar')],
      ['2026-13-01', en('v.date_not_in_calendar')],
      ['0000-01-01', en('v.year_range')],
      ['1969-12-31', en('v.year_range')],
      ['10000-01-01', en('v.date_invalid')],
      ['2026-2-1', en('v.date_invalid')],
      ['yesterday', en('v.date_invalid')],
    ];
    for (const url of DATED) {
      for (const field of ['date_from', 'date_to']) {
        for (const [day, message] of cases) {
          const res = await get(`${url}?${field}=${day}`);
          expect(res.statusCode, `${url} ${field}=${day}`).toBe(400);
          expect(res.json(), `${url} ${field}=${day}`).toEqual({
            statusCode: 400,
            error: 'Bad Request',
            message: 'The query parameters are invalid.',
            code: 'QUERY_PARAM_INVALID',
            metadata: { [field]: message },
          });
        }
      }
      // A leap day exists.
      expect((await get(`${url}?date_from=2028-02-29`)).statusCode, url).toBe(200);
    }
  });

  it('refuses a date_to before date_from with a message that says so, on every dated route', async () => {
    for (const url of DATED) {
      const res = await get(`${url}?date_from=2026-03-02&date_to=2026-03-01`);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().metadata, url).toEqual({ date_to: en('v.date_order') });
    }
  });

  it('refuses malformed months and years outside 1970–9999 the same way on every monthly route', async () => {
    const cases: [string, string][] = [
      ['2026-13', en('v.month_invalid')],
      ['2026-00', en('v.month_invalid')],
      ['2026-1', en('v.month_invalid')],
      ['10000-01', en('v.month_invalid')],
      ['1969-12', en('v.year_range')],
      ['0000-01', en('v.year_range')],
    ];
    for (const url of MONTHLY) {
      for (const [month, message] of cases) {
        const res = await get(`${url}?month=${month}`);
        expect(res.statusCode, `${url} ${month}`).toBe(400);
        expect(res.json(), `${url} ${month}`).toMatchObject({
          code: 'QUERY_PARAM_INVALID',
          metadata: { month: message },
        });
      }
    }
  });

  it('refuses a system reset date that is not a real day with BODY_INVALID and the same messages', async () => {
    for (const [day, message] of [
      ['2026-02-31', en('v.date_not_in_calendar')],
      ['0000-01-01', en('v.year_range')],
      ['31/12/2026', en('v.date_invalid')],
    ]) {
      const res = await injectAs(t.app, admin, {
        method: 'PUT',
        url: '/api/v1/sys/reset-date',
        payload: { reset_date: day },
      });
      expect(res.statusCode, day).toBe(400);
      expect(res.json(), day).toMatchObject({
        code: 'BODY_INVALID',
        metadata: { reset_date: message },
      });
    }
  });

  it('refuses forged and tampered cursors on both cursor-paged lists with 400 and a clear message', async () => {
    const forged = [
      'AAAA',
      '!!!',
      'a',
      'x'.repeat(300),
      b64('{"a":1}'),
      b64('[0]'),
      b64('[1.5]'),
      b64('[9007199254740992]'),
      b64('["1"]'),
      b64('[1,2]'),
      b64('[1e400]'),
    ];
    const forgedOrders = [
      ...forged,
      b64('["2026-13-45T99:99:99.000000Z",1]'),
      b64('["2026-02-31T00:00:00.000000Z",1]'),
      b64('["0000-01-01T00:00:00.000000Z",1]'),
      b64('["2026-01-01T00:00:00.000000Z",0]'),
      b64('["2026-01-01T00:00:00Z",1]'),
    ];
    for (const [url, cursors] of [
      ['/api/v1/tokens/transactions', forged],
      ['/api/v1/orders/admin', forgedOrders],
    ] as const) {
      for (const cursor of cursors) {
        const res = await get(`${url}?cursor=${encodeURIComponent(cursor)}`);
        expect(res.statusCode, `${url} ${cursor}`).toBe(400);
        expect(res.json(), `${url} ${cursor}`).toMatchObject({
          code: 'QUERY_PARAM_INVALID',
          metadata: { cursor: en('v.cursor_invalid') },
        });
      }
    }
    // What the server writes, it reads back.
    const real = transactionCursor.encode([MAX]);
    expect((await get(`/api/v1/tokens/transactions?cursor=${real}`)).statusCode).toBe(200);
    const order = orderCursor.encode(['9999-12-31T23:59:59.999999Z', 1]);
    expect((await get(`/api/v1/orders/admin?cursor=${order}`)).statusCode).toBe(200);
  });

  it('says an order whose subtotal passes 2^53 - 1 is too large, with AMOUNT_TOO_LARGE, not "must be greater than 0"', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/orders',
      headers: {
        authorization: `Bearer ${terminal.key}`,
        [IDEMPOTENCY_KEY_HEADER]: crypto.randomUUID(),
      },
      payload: {
        company_code: company.code,
        employee_id: employee.employee_id,
        order_type: 'meal',
        items: [{ name: 'Gold', quantity: 10_000, unit_tokens: 2 ** 50 }],
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'AMOUNT_TOO_LARGE',
      metadata: { items: en('v.subtotal_too_large') },
    });
    expect(envelopeProblem(res)).toBeNull();
  });

  it('says 1e400 must be a whole number within range, not that the field is required', async () => {
    for (const raw of ['1e400', '-1e400']) {
      const res = await injectAs(t.app, admin, {
        method: 'POST',
        url: '/api/v1/tokens/topup-token',
        headers: { 'content-type': 'application/json' },
        payload: `{"company_id":${company.id},"amount":${raw}}`,
      });
      expect(res.statusCode, raw).toBe(400);
      expect(res.json(), raw).toMatchObject({
        code: 'BODY_INVALID',
        metadata: { amount: en('v.number_range') },
      });
    }
    const missing = await injectAs(t.app, admin, {
      method: 'POST',
      url: '/api/v1/tokens/topup-token',
      payload: { company_id: company.id },
    });
    expect(missing.json().metadata).toEqual({ amount: en('v.amount_required') });
  });

  it('refuses an amount past 2^53 - 1 with AMOUNT_TOO_LARGE and says how large it may be', async () => {
    const res = await injectAs(t.app, admin, {
      method: 'POST',
      url: '/api/v1/tokens/topup-token',
      payload: { company_id: company.id, amount: 2 ** 53 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'AMOUNT_TOO_LARGE',
      metadata: { amount: en('v.amount_too_large') },
    });
  });

  it('refuses a top-up past the wallet cap with AMOUNT_TOO_LARGE, not "Invalid value"', async () => {
    const full = await newCompany(t);
    await issueToCompany(t.app.deps, null, { company_id: full.id, amount: MAX - 10 });
    const res = await injectAs(t.app, admin, {
      method: 'POST',
      url: '/api/v1/tokens/topup-token',
      payload: { company_id: full.id, amount: 100 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'AMOUNT_TOO_LARGE',
      metadata: { amount: en('v.balance_cap') },
    });
  });

  it('refuses two file parts in the import upload with TOO_MANY_FILES, not EMPTY_FILE', async () => {
    const companyAdmin = (await signedIn(t, 'company_admin', { companyId: company.id })).session;
    const boundary = `----two${crypto.randomBytes(6).toString('hex')}`;
    const part = (name: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      `Content-Type: text/csv\r\n\r\nemployee_id\r\nE1\r\n`;
    for (const url of ['/api/v1/employees/import/preview', '/api/v1/employees/import']) {
      const res = await injectAs(t.app, companyAdmin, {
        method: 'POST',
        url,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `${part('a.csv')}${part('b.csv')}--${boundary}--\r\n`,
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({
        code: 'TOO_MANY_FILES',
        metadata: { file: en('v.too_many_files') },
      });
    }
  });

  it('refuses a cell over 1,000 characters in the import preview without echoing it', async () => {
    const companyAdmin = (await signedIn(t, 'company_admin', { companyId: company.id })).session;
    for (const size of [1_001, 9 * 1024 * 1024]) {
      const cell = 'n'.repeat(size);
      const res = await injectAs(t.app, companyAdmin, {
        method: 'POST',
        url: '/api/v1/employees/import/preview',
        ...multipart(`employee_id,name\r\nE1,Jane\r\nE2,${cell}\r\n`),
      });
      expect(res.statusCode, String(size)).toBe(400);
      expect(res.json(), String(size)).toMatchObject({ code: 'FILE_CELL_TOO_LONG' });
      expect(res.body.length, String(size)).toBeLessThan(500);
    }
    // At the limit the row is read, and only refused for its own rule (a name is at most 200).
    const atLimit = await injectAs(t.app, companyAdmin, {
      method: 'POST',
      url: '/api/v1/employees/import/preview',
      ...multipart(`employee_id,name\r\nE1,${'n'.repeat(1_000)}\r\n`),
    });
    expect(atLimit.statusCode).toBe(200);
  });

  it('refuses a header of 700,000 columns in the import preview without echoing it', async () => {
    const companyAdmin = (await signedIn(t, 'company_admin', { companyId: company.id })).session;
    const wide = Array.from({ length: 700_000 }, (_, i) => `c${i}`).join(',');
    const res = await injectAs(t.app, companyAdmin, {
      method: 'POST',
      url: '/api/v1/employees/import/preview',
      ...multipart(`employee_id,${wide}\r\nE1\r\n`),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'FILE_TOO_MANY_COLUMNS' });
    expect(res.body.length).toBeLessThan(500);
    // Under the cap, unknown names are quoted back cut short and counted, not whole.
    const names = Array.from({ length: 40 }, (_, i) => `${'u'.repeat(900)}${i}`).join(',');
    const unknown = await injectAs(t.app, companyAdmin, {
      method: 'POST',
      url: '/api/v1/employees/import/preview',
      ...multipart(`employee_id,${names}\r\nE1\r\n`),
    });
    expect(unknown.json()).toMatchObject({ code: 'FILE_INVALID' });
    expect(unknown.json().message).toContain('and 30 more');
    expect(unknown.body.length).toBeLessThan(1_000);
  });

  it('answers invalid JSON, an empty JSON body, a wrong content type and a body over 1 MiB in the envelope with a code', async () => {
    const post = (payload: string, contentType: string) =>
      injectAs(t.app, admin, {
        method: 'POST',
        url: '/api/v1/tokens/topup-token',
        headers: { 'content-type': contentType },
        payload,
      });
    const cases: [string, string, number, string][] = [
      ['{"amount":', 'application/json', 400, 'BODY_INVALID'],
      ['', 'application/json', 400, 'BODY_INVALID'],
      ['amount=1', 'application/x-www-form-urlencoded', 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['{"amount":1}', 'text/plain', 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [
        JSON.stringify({ note: 'x'.repeat(1024 * 1024) }),
        'application/json',
        413,
        'PAYLOAD_TOO_LARGE',
      ],
    ];
    for (const [payload, type, status, code] of cases) {
      const res = await post(payload, type);
      expect(res.statusCode, `${type} ${payload.slice(0, 20)}`).toBe(status);
      expect(res.json().code, type).toBe(code);
      expect(envelopeProblem(res)).toBeNull();
    }
    const broken = await post('{"amount":', 'application/json');
    expect(broken.json().metadata).toEqual({ _root: en('v.json_invalid') });
  });

  it('answers raw HTTP the parser cannot read with a 400 envelope and a catalogue code', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    const cases: [string, number, string][] = [
      ['GARBAGE\r\n\r\n', 400, 'REQUEST_INVALID'],
      ['GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400, 'REQUEST_INVALID'],
      ['GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n', 400, 'REQUEST_INVALID'],
      [
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
        431,
        'HEADERS_TOO_LARGE',
      ],
    ];
    for (const [request, status, code] of cases) {
      const answer = await raw(request);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head, request.slice(0, 30)).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(head).toMatch(/content-type: application\/json/i);
      // Even an unreadable request's answer has its id (issue 44).
      expect(head).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i);
      expect(JSON.parse(body!), request.slice(0, 30)).toMatchObject({ statusCode: status, code });
      expect(body).not.toContain('Client Error');
    }
  });

  it('logs refusals below error level and without SQL; only a genuine 5xx is logged as an error, unseen by the client', async () => {
    capture.entries.length = 0;
    capture.text = '';
    const formerlyFailing = [
      '/api/v1/dashboard?month=9999-12',
      ...DATED.map((url) => `${url}?date_to=9999-12-31`),
      ...DATED.map((url) => `${url}?date_from=0000-01-01`),
      `/api/v1/tokens/transactions?cursor=${b64('[1e400]')}`,
      `/api/v1/orders/admin?cursor=${b64('["2026-13-45T99:99:99.000000Z",1]')}`,
    ];
    for (const url of formerlyFailing) {
      const res = await get(url);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    expect(capture.entries.filter((e) => e.level >= 50)).toEqual([]);
    expect(capture.text).not.toMatch(/Failed query|SELECT /);

    const crash = await t.app.inject({ url: '/api/v1/probe/crash' });
    expect(crash.statusCode).toBe(500);
    expect(crash.json()).toMatchObject({ code: 'SERVER_ERROR' });
    expect(crash.body).not.toMatch(/boom|SELECT|hidden_table|at /);
    const errors = capture.entries.filter((e) => e.level >= 50);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('boom');
  });
});
