// Issue 39 item 7 (decision 0071): integers in query, path and body are decimal digits only, and
// identifiers (staff numbers, usernames, codes) refuse control, zero-width and bidirectional
// characters and are NFKC-normalised, so a full-width staff number is the same person wherever it
// arrives: the employee form, the terminal's order, both CSV imports and the sign-in.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES, type Company } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { injectAs, requestsAs } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { multipart } from '../../test/http';
import { newTerminal, type TestTerminal } from '../../test/ledger';
import {
  newCompany,
  signedIn,
  STRONG_PASSWORD,
  uniqueName,
  type SignedInUser,
} from '../../test/management';
import { issueToCompany } from '../modules/tokens';

const en = (key: keyof typeof VALIDATION_MESSAGES) => VALIDATION_MESSAGES[key].en;
/** ASCII as its full-width forms (U+FF01–U+FF5E): `E0001` → `Ｅ０００１`. */
const fullWidth = (text: string) =>
  text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

/** Integers as `z.coerce.number()` read them, none of them decimal digits. */
const NOT_DECIMAL = ['0x10', '1e1', '0b10', '0o7', ' 12', '12 ', '+5', '-1', '1.0', '١٢', '１２'];
/** The hidden characters of issue 39, each inside a staff number. */
const HIDDEN = {
  'zero-width space': '\u200B',
  'zero-width non-joiner': '\u200C',
  'zero-width joiner': '\u200D',
  'word joiner': '\u2060',
  'zero-width no-break space': '\uFEFF',
  'soft hyphen': '\u00AD',
  'right-to-left override': '\u202E',
  'left-to-right embedding': '\u202A',
  'right-to-left isolate': '\u2067',
  'pop directional isolate': '\u2069',
  'left-to-right mark': '\u200E',
  'right-to-left mark': '\u200F',
  'Arabic letter mark': '\u061C',
  'a tab': '\t',
  'a newline': '\n',
  'a C1 control': '\u0085',
  'the Hangul filler': '\u3164',
};

describe.each(await testDatabaseKinds())('strict input on %s', (kind) => {
  let t: TestApp;
  let admin: SignedInUser;
  let hr: SignedInUser;
  let company: Company;
  let terminal: TestTerminal;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signedIn(t, 'admin');
    company = await newCompany(t, null, 0);
    hr = await signedIn(t, 'company_admin', { companyId: company.id });
    terminal = await newTerminal(t.app.deps);
    await issueToCompany(t.app.deps, null, { company_id: company.id, amount: 10_000 });
  });
  afterAll(() => t.close());

  const get = (url: string) => injectAs(t.app, admin.session, { url });

  describe('integers', () => {
    it('refuses query integers not written in decimal digits (page, page_size, an id, a limit)', async () => {
      for (const value of NOT_DECIMAL) {
        const v = encodeURIComponent(value);
        for (const [url, field] of [
          [`/api/v1/employees?page=${v}`, 'page'],
          [`/api/v1/companies?page_size=${v}`, 'page_size'],
          [`/api/v1/employees?company_id=${v}`, 'company_id'],
          [`/api/v1/tokens/transactions?limit=${v}`, 'limit'],
        ] as const) {
          const res = await get(url);
          expect(res.statusCode, `${url} ${res.body}`).toBe(400);
          expect(res.json(), url).toMatchObject({
            code: 'QUERY_PARAM_INVALID',
            metadata: { [field]: en('v.number_invalid') },
          });
        }
      }
      // Decimal digits still work, leading zeros included.
      expect((await get('/api/v1/employees?page=1&page_size=010')).statusCode).toBe(200);
      expect((await get(`/api/v1/employees?company_id=00${company.id}`)).statusCode).toBe(200);
      expect((await get('/api/v1/tokens/transactions?limit=5')).statusCode).toBe(200);
    });

    it('refuses path ids not written in decimal digits', async () => {
      for (const value of NOT_DECIMAL.filter((v) => v.trim() === v)) {
        const url = `/api/v1/companies/${encodeURIComponent(value)}`;
        const res = await get(url);
        expect(res.statusCode, `${url} ${res.body}`).toBe(400);
        expect(res.json(), url).toMatchObject({
          code: 'QUERY_PARAM_INVALID',
          metadata: { id: en('v.number_invalid') },
        });
      }
      // 0x10 is not company 16, nor 1e1 company 10: the same id in digits is found.
      expect((await get(`/api/v1/companies/${company.id}`)).statusCode).toBe(200);
      expect((await get(`/api/v1/companies/0${company.id}`)).statusCode).toBe(200);
    });

    it('refuses body integers sent as text, whatever their form; JSON numbers stay numbers', async () => {
      const update = (payload: string) =>
        injectAs(t.app, admin.session, {
          method: 'PUT',
          url: `/api/v1/companies/${company.id}`,
          headers: { 'content-type': 'application/json' },
          payload,
        });
      const body = (resetDay: string) =>
        `{"name": "Strict", "status": "active", "init_token": 0, "monthly_reset_day": ${resetDay}}`;
      for (const value of ['"0x10"', '"1e1"', '"16"', '" 16"']) {
        const res = await update(body(value));
        expect(res.statusCode, value).toBe(400);
        expect(res.json(), value).toMatchObject({
          code: 'BODY_INVALID',
          metadata: { monthly_reset_day: en('v.number_invalid') },
        });
      }
      for (const value of ['16', '16.0', '1.6e1']) {
        const res = await update(body(value));
        expect(res.statusCode, `${value} ${res.body}`).toBe(200);
        expect(res.json().data.monthly_reset_day).toBe(16);
      }
    });
  });

  describe('identifiers', () => {
    const createEmployee = (employeeId: string) =>
      requestsAs(t.app, hr.session).post('/api/v1/employees', {
        employee_id: employeeId,
        status: 'active',
      });

    it.each(Object.entries(HIDDEN))(
      'refuses a staff number holding %s, on the form and on the terminal',
      async (_name, character) => {
        // At the end too, unless it is white space, which is trimmed as before (never stored).
        const atEnd = character.trim() === '' ? [] : [`E0001${character}`];
        for (const employeeId of [`E${character}0001`, ...atEnd]) {
          const res = await createEmployee(employeeId);
          expect(res.statusCode, JSON.stringify(employeeId)).toBe(400);
          expect(res.json()).toMatchObject({
            code: 'BODY_INVALID',
            metadata: { employee_id: en('v.identifier_chars') },
          });
        }
        const order = await t.app.inject({
          method: 'POST',
          url: '/api/v1/orders',
          headers: {
            authorization: `Bearer ${terminal.key}`,
            'idempotency-key': crypto.randomUUID(),
          },
          payload: {
            company_code: company.code,
            employee_id: `E${character}0001`,
            order_type: 'dine_in',
            items: [{ name: 'Meal', quantity: 1, unit_tokens: 1 }],
          },
        });
        expect(order.statusCode).toBe(400);
        expect(order.json()).toMatchObject({
          code: 'BODY_INVALID',
          metadata: { employee_id: en('v.identifier_chars') },
        });
      },
    );

    it('refuses usernames and company codes holding zero-width or bidirectional characters', async () => {
      for (const username of ['ad\u200Bmin.x', 'admin.x\u202E', '\u2066admin.x']) {
        const res = await requestsAs(t.app, admin.session).post('/api/v1/users', {
          username,
          email: uniqueName().email,
          password: STRONG_PASSWORD,
          confirm_password: STRONG_PASSWORD,
          type: 'super_hr',
          status: 'active',
        });
        expect(res.statusCode, JSON.stringify(username)).toBe(400);
        expect(res.json().metadata).toMatchObject({ username: en('v.identifier_chars') });
      }
      const code = await requestsAs(t.app, admin.session).post('/api/v1/companies', {
        code: 'AC\u200DME1',
        name: 'Hidden',
        status: 'active',
        monthly_reset_day: 1,
        init_token: 0,
      });
      expect(code.statusCode).toBe(400);
      expect(code.json().metadata).toMatchObject({ code: en('v.identifier_chars') });
    });

    it('stores a full-width staff number as ASCII, and the terminal and both imports find it so', async () => {
      const created = await createEmployee(fullWidth('FW0001'));
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data.employee_id).toBe('FW0001');
      // The same staff number typed in ASCII is the same person.
      const again = await createEmployee('FW0001');
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY');
      await requestsAs(t.app, hr.session).post('/api/v1/tokens/topup-token/employees', {
        items: [{ employee_id: created.json().data.id, amount: 50 }],
      });

      // The terminal sends the company code and the staff number full-width.
      const order = await t.app.inject({
        method: 'POST',
        url: '/api/v1/orders',
        headers: {
          authorization: `Bearer ${terminal.key}`,
          'idempotency-key': crypto.randomUUID(),
        },
        payload: {
          company_code: fullWidth(company.code),
          employee_id: fullWidth('FW0001'),
          order_type: 'dine_in',
          items: [{ name: 'Meal', quantity: 1, unit_tokens: 5 }],
        },
      });
      expect(order.statusCode, order.body).toBe(201);

      const rewards = await injectAs(t.app, hr.session, {
        method: 'POST',
        url: '/api/v1/tokens/topup-token/employees/preview',
        ...multipart(`employee_id,amount\n${fullWidth('FW0001')},10\n`, {
          filename: 'rewards.csv',
        }),
      });
      expect(rewards.statusCode, rewards.body).toBe(200);
      expect(rewards.json().data.rows[0]).toMatchObject({
        employee_id: 'FW0001',
        action: 'reward',
        amount: 10,
      });

      const staff = await injectAs(t.app, hr.session, {
        method: 'POST',
        url: '/api/v1/employees/import/preview',
        ...multipart(`employee_id,name\n${fullWidth('FW0001')},Renamed\n`),
      });
      expect(staff.statusCode, staff.body).toBe(200);
      expect(staff.json().data.rows[0]).toMatchObject({
        employee_id: 'FW0001',
        action: 'override',
      });
      const hidden = await injectAs(t.app, hr.session, {
        method: 'POST',
        url: '/api/v1/employees/import/preview',
        ...multipart('employee_id,name\nFW\u200B0001,Hidden\n'),
      });
      expect(hidden.json().data.rows[0]).toMatchObject({
        action: 'invalid',
        errors: { employee_id: 'v.identifier_chars' },
      });
    });

    it('stores a full-width username as ASCII and signs it in typed either way', async () => {
      const username = `fw.${crypto.randomBytes(3).toString('hex')}`;
      const res = await requestsAs(t.app, admin.session).post('/api/v1/users', {
        username: fullWidth(username),
        email: uniqueName().email,
        password: STRONG_PASSWORD,
        confirm_password: STRONG_PASSWORD,
        type: 'super_hr',
        status: 'active',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.username).toBe(username);
      for (const typed of [username, fullWidth(username)]) {
        const login = await t.app.inject({
          method: 'POST',
          url: '/api/v1/iam/login',
          payload: { username: typed, password: STRONG_PASSWORD },
        });
        expect(login.statusCode, typed).toBe(200);
        expect(login.json().data.user.username).toBe(username);
      }
    });
  });
});
