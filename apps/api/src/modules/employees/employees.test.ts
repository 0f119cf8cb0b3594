import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES, type Company, type ValidationMessageKey } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs, type TestSession } from '../../../test/auth';
import { testDatabaseKinds, untilAStatementWaits } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import {
  codeOf,
  newTerminal,
  order,
  refund,
  walletRows,
  type TestTerminal,
} from '../../../test/ledger';
import { auditRowsOf, newCompany, signedIn, type SignedInUser } from '../../../test/management';
import { queryRows } from '../../db/client';
import { inTransaction, sqlState, violatedConstraint } from '../../lib/transaction';
import { runMonthlyResets } from '../jobs';
import { likePattern } from '../../lib/sql';
import { searchMatches } from './employees.repository';
import { importEmployees } from '../employee-import';
import { createEmployeeIn, getEmployee } from './employees.service';
import { issueToCompany, distributeToEmployees } from '../tokens';

const en = (key: ValidationMessageKey) => VALIDATION_MESSAGES[key].en;

describe.each(await testDatabaseKinds())('employees on %s', (kind) => {
  let t: TestApp;
  let acme: Company;
  let other: Company;
  let acmeAdmin: SignedInUser;
  let otherAdmin: SignedInUser;
  let admin: SignedInUser;
  let hr: SignedInUser;
  let terminal: TestTerminal;

  beforeAll(async () => {
    t = await createTestApp(kind);
    acme = await newCompany(t);
    other = await newCompany(t);
    acmeAdmin = await signedIn(t, 'company_admin', { companyId: acme.id });
    otherAdmin = await signedIn(t, 'company_admin', { companyId: other.id });
    admin = await signedIn(t, 'admin');
    hr = await signedIn(t, 'super_hr');
    terminal = await newTerminal(t.app.deps);
  });
  afterAll(() => t.close());

  const call = (
    who: SignedInUser,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    injectAs(t.app, who.session as TestSession, {
      method,
      url: `/api/v1/employees${url}`,
      ...(payload ? { payload } : {}),
    });

  let sequence = 0;
  const staffNumber = () => {
    sequence += 1;
    return `S${String(sequence).padStart(4, '0')}`;
  };
  /** An employee of acme (or `as`'s company), made through the API. */
  const create = async (body: Record<string, unknown> = {}, as = acmeAdmin) => {
    const res = await call(as, 'POST', '', {
      employee_id: staffNumber(),
      status: 'active',
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; employee_id: string; email: string | null };
  };

  describe('validation', () => {
    it.each([
      ['a missing employee ID', { status: 'active' }, 'employee_id', 'v.employee_id_required'],
      [
        'a one-character employee ID',
        { employee_id: 'E', status: 'active' },
        'employee_id',
        'v.employee_id_min',
      ],
      [
        'a 51-character employee ID',
        { employee_id: 'E'.repeat(51), status: 'active' },
        'employee_id',
        'v.employee_id_max',
      ],
      [
        'a bad email',
        { employee_id: 'E100', email: 'not-an-email', status: 'active' },
        'email',
        'v.email_invalid',
      ],
      ['a missing status', { employee_id: 'E100' }, 'status', 'v.status_required'],
      [
        'an unknown status',
        { employee_id: 'E100', status: 'paused' },
        'status',
        'v.status_required',
      ],
      [
        'a balance in the body',
        { employee_id: 'E100', status: 'active', available_tokens: 5 },
        'available_tokens',
        'v.unknown_field',
      ],
    ] as const)('refuses %s on create', async (_label, body, field, key) => {
      const res = await call(acmeAdmin, 'POST', '', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BODY_INVALID', metadata: { [field]: en(key) } });
    });

    it('accepts a 2- and a 50-character employee ID, and an empty email', async () => {
      await create({ employee_id: 'AB', email: '' });
      await create({ employee_id: 'Z'.repeat(50) });
    });

    it.each([
      ['a one-character employee ID', { employee_id: 'E' }, 'employee_id', 'v.employee_id_min'],
      [
        'a 51-character employee ID',
        { employee_id: 'E'.repeat(51) },
        'employee_id',
        'v.employee_id_max',
      ],
      ['a bad email', { email: 'nope@' }, 'email', 'v.email_invalid'],
      ['an unknown status', { status: 'paused' }, 'status', 'v.status_required'],
      ['a balance', { available_tokens: 100 }, 'available_tokens', 'v.unknown_field'],
      ['a company', { company_id: 1 }, 'company_id', 'v.unknown_field'],
      ['consumed tokens', { consumed_tokens: 1 }, 'consumed_tokens', 'v.unknown_field'],
    ] as const)('refuses %s on update', async (_label, body, field, key) => {
      const employee = await create();
      const res = await call(acmeAdmin, 'PUT', `/${employee.id}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BODY_INVALID', metadata: { [field]: en(key) } });
    });
  });

  describe('duplicates', () => {
    it('refuses a staff number already used in the company, but not one used elsewhere', async () => {
      const first = await create();
      const dup = await call(acmeAdmin, 'POST', '', {
        employee_id: first.employee_id,
        status: 'active',
      });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toMatchObject({ code: 'EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY' });
      await create({ employee_id: first.employee_id }, otherAdmin);
    });

    it('refuses an email used in the company or in another company, ignoring case', async () => {
      await create({ email: 'dup.same@acme.example' });
      const same = await call(acmeAdmin, 'POST', '', {
        employee_id: staffNumber(),
        email: 'DUP.Same@acme.example',
        status: 'active',
      });
      expect(same.statusCode).toBe(409);
      expect(same.json()).toMatchObject({ code: 'EMAIL_EXISTING_IN_THIS_COMPANY' });
      await create({ email: 'dup.other@elsewhere.example' }, otherAdmin);
      const elsewhere = await call(acmeAdmin, 'POST', '', {
        employee_id: staffNumber(),
        email: 'Dup.Other@Elsewhere.example',
        status: 'active',
      });
      expect(elsewhere.statusCode).toBe(409);
      expect(elsewhere.json()).toMatchObject({ code: 'EMAIL_EXISTING_IN_OTHER_COMPANY' });
    });

    it('keeps an email to one live employee of all companies in the database itself', async () => {
      // Migration 0028: a write that skipped the services' check is refused by the unique index.
      await create({ email: 'db.unique@acme.example' });
      let error: unknown;
      try {
        await t.app.deps.database.db.execute(
          sql`INSERT INTO employees (company_id, employee_id, email, status, token_month, created_at, updated_at)
              VALUES (${other.id}, ${staffNumber()}, 'DB.Unique@acme.example', 'active', '2026-01', now(), now())`,
        );
      } catch (e) {
        error = e;
      }
      expect(sqlState(error)).toBe('23505');
      expect(violatedConstraint(error)).toBe('employees_email_key');
    });

    it('applies the same codes on update, and lets an employee keep its own values', async () => {
      const a = await create({ email: 'upd.a@acme.example' });
      const b = await create({ email: 'upd.b@acme.example' });
      await create({ email: 'upd.c@elsewhere.example' }, otherAdmin);
      const byId = await call(acmeAdmin, 'PUT', `/${b.id}`, { employee_id: a.employee_id });
      expect(byId.json()).toMatchObject({ code: 'EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY' });
      const byEmail = await call(acmeAdmin, 'PUT', `/${b.id}`, { email: 'UPD.A@acme.example' });
      expect(byEmail.json()).toMatchObject({ code: 'EMAIL_EXISTING_IN_THIS_COMPANY' });
      const elsewhere = await call(acmeAdmin, 'PUT', `/${b.id}`, {
        email: 'upd.c@elsewhere.example',
      });
      expect(elsewhere.json()).toMatchObject({ code: 'EMAIL_EXISTING_IN_OTHER_COMPANY' });
      const same = await call(acmeAdmin, 'PUT', `/${b.id}`, {
        employee_id: b.employee_id,
        email: 'UPD.B@acme.example',
      });
      expect(same.statusCode).toBe(200);
      expect(same.json().data.email).toBe('UPD.B@acme.example');
    });
  });

  describe('update and status', () => {
    it('changes the fields given, keeps the others, and audits the change', async () => {
      const employee = await create({ name: 'Ada', email: 'ada.update@acme.example' });
      const newNumber = staffNumber();
      const res = await call(acmeAdmin, 'PUT', `/${employee.id}`, {
        employee_id: newNumber,
        name: 'Ada Lovelace',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        id: employee.id,
        employee_id: newNumber,
        name: 'Ada Lovelace',
        email: 'ada.update@acme.example',
        status: 'active',
      });
      const cleared = await call(acmeAdmin, 'PUT', `/${employee.id}`, {
        email: '',
        status: 'inactive',
      });
      expect(cleared.json().data).toMatchObject({ email: null, status: 'inactive' });
      const audit = await auditRowsOf(t, 'employee', employee.id);
      expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'update']);
      expect(audit[1]).toMatchObject({
        actor_user_id: acmeAdmin.user.id,
        before: { employee_id: employee.employee_id, name: 'Ada' },
        after: { employee_id: newNumber, name: 'Ada Lovelace' },
      });
    });

    it('changes the status with one audit row', async () => {
      const employee = await create();
      const res = await call(acmeAdmin, 'PATCH', `/${employee.id}/status`, { status: 'inactive' });
      expect(res.json().data.status).toBe('inactive');
      const audit = await auditRowsOf(t, 'employee', employee.id);
      expect(audit.map((a) => a.action)).toEqual(['create', 'status_change']);
      expect(audit[1]).toMatchObject({
        before: { status: 'active' },
        after: { status: 'inactive' },
      });
      const missing = await call(acmeAdmin, 'PATCH', `/${employee.id}/status`, {});
      expect(missing.json()).toMatchObject({
        code: 'BODY_INVALID',
        metadata: { status: en('v.status_required') },
      });
    });
  });

  describe('list', () => {
    it('searches staff number, name and email, filters by status and pages', async () => {
      const tag = `q${Date.now().toString(36)}`;
      const byNumber = await create({ employee_id: `${tag}-N` });
      const byName = await create({ name: `Grace ${tag.toUpperCase()}` });
      const byEmail = await create({ email: `${tag}@acme.example`, status: 'inactive' });
      const found = await call(acmeAdmin, 'GET', `?search=${tag}&page_size=50`);
      expect(found.statusCode).toBe(200);
      expect(found.json().total).toBe(3);
      expect(
        found
          .json()
          .data.map((e: { id: number }) => e.id)
          .sort(),
      ).toEqual([byNumber.id, byName.id, byEmail.id].sort());
      const active = await call(acmeAdmin, 'GET', `?search=${tag}&status=active`);
      expect(active.json().total).toBe(2);
      const inactive = await call(acmeAdmin, 'GET', `?search=${tag}&status=inactive`);
      expect(inactive.json().data.map((e: { id: number }) => e.id)).toEqual([byEmail.id]);
      // Wildcards in the search are literal.
      expect((await call(acmeAdmin, 'GET', `?search=%25`)).json().total).toBe(0);
      const page = await call(acmeAdmin, 'GET', '?page=1&page_size=10');
      expect(page.json().data.length).toBeLessThanOrEqual(10);
      expect(page.json().total).toBeGreaterThanOrEqual(3);
      expect((await call(acmeAdmin, 'GET', '?page_size=15')).json()).toMatchObject({
        code: 'QUERY_PARAM_INVALID',
      });
      // Only the caller's company.
      const theirs = (await call(otherAdmin, 'GET', `?search=${tag}`)).json();
      expect(theirs.total).toBe(0);
    });

    // The unfiltered total is read from company_employee_counts (migration 0030, decision 0064),
    // kept by triggers: it must stay what counting gives, through creations, an import, a
    // deletion, a creation rolled back and a hard delete.
    it("keeps each company's counter of live employees equal to a count, and totals lists by it", async () => {
      const db = t.db.database.db;
      const fresh = await newCompany(t);
      const freshAdmin = await signedIn(t, 'company_admin', { companyId: fresh.id });
      const counted = async (companyId: number) => {
        const [row] = await queryRows<{ counter: number | null; live: number }>(
          db,
          sql`SELECT (SELECT live FROM company_employee_counts WHERE company_id = ${companyId})::int
                       AS counter,
                     (SELECT count(*) FROM employees
                       WHERE company_id = ${companyId} AND deleted_at IS NULL)::int AS live`,
        );
        return row!;
      };
      const listed = async (who: SignedInUser, query = '') =>
        (await call(who, 'GET', `?page_size=10${query}`)).json().total as number;
      // No employee yet: no counter row, a total of 0.
      expect(await counted(fresh.id)).toEqual({ counter: null, live: 0 });
      expect(await listed(freshAdmin)).toBe(0);

      const one = await create({}, freshAdmin);
      await create({}, freshAdmin);
      expect(await counted(fresh.id)).toEqual({ counter: 2, live: 2 });
      const rows = Array.from({ length: 12 }, (_, i) => `FC${i},,Imported ${i},active`);
      const file = Buffer.from(`employee_id,email,name,status\r\n${rows.join('\r\n')}\r\n`);
      await importEmployees(t.app.deps, { kind: 'company', companyId: fresh.id }, file);
      expect(await counted(fresh.id)).toEqual({ counter: 14, live: 14 });
      // A creation rolled back changes nothing.
      await expect(
        inTransaction(t.app.deps.database, async (tx) => {
          await createEmployeeIn(
            tx,
            t.app.deps,
            { kind: 'company', companyId: fresh.id },
            { employee_id: 'FR1', status: 'active' },
          );
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await counted(fresh.id)).toEqual({ counter: 14, live: 14 });

      expect((await call(freshAdmin, 'DELETE', `/${one.id}`)).statusCode).toBe(200);
      expect(await counted(fresh.id)).toEqual({ counter: 13, live: 13 });
      // A status change is not a deletion.
      const other = (await call(freshAdmin, 'GET', '?page_size=10')).json().data[0] as {
        id: number;
      };
      await call(freshAdmin, 'PATCH', `/${other.id}/status`, { status: 'inactive' });
      expect(await counted(fresh.id)).toEqual({ counter: 13, live: 13 });
      // A deleted employee restored, and one with no ledger rows deleted outright.
      await db.execute(sql`UPDATE employees SET deleted_at = NULL WHERE id = ${one.id}`);
      expect(await counted(fresh.id)).toEqual({ counter: 14, live: 14 });
      await db.execute(sql`DELETE FROM employees WHERE id = ${one.id}`);
      expect(await counted(fresh.id)).toEqual({ counter: 13, live: 13 });

      // The lists' totals: the company's, the platform's for the company and for all, and a
      // company admin naming another company.
      expect(await listed(freshAdmin)).toBe(13);
      expect(await listed(admin, `&company_id=${fresh.id}`)).toBe(13);
      const [all] = await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM employees WHERE deleted_at IS NULL`,
      );
      expect(await listed(admin)).toBe(all!.n);
      expect(await listed(freshAdmin, `&company_id=${acme.id}`)).toBe(0);
      // Filtered lists still count: the inactive one.
      expect(await listed(freshAdmin, '&status=inactive')).toBe(1);
      // The unfiltered total is the counter's (made wrong here to tell them apart), a search's is
      // counted.
      await db.execute(
        sql`UPDATE company_employee_counts SET live = live + 100 WHERE company_id = ${fresh.id}`,
      );
      expect(await listed(freshAdmin)).toBe(113);
      expect(await listed(freshAdmin, '&search=Imported')).toBe(12);
      // What a load without triggers (the bench's generator) calls after it: the counts again.
      await db.execute(sql`SELECT refresh_company_employee_counts()`);
      expect(await counted(fresh.id)).toEqual({ counter: 13, live: 13 });
      expect(await counted(acme.id)).toEqual({
        counter: (await counted(acme.id)).live,
        live: (await counted(acme.id)).live,
      });
    });

    // A filtered list's count is kept under its company's version (migration 0031, decision
    // 0065): every change the count reads moves the version, once per transaction, and nothing
    // else does (an order's balance, a monthly amount).
    it("keeps a filtered list's count under the company's version, and counts again once anything it reads changed", async () => {
      const db = t.db.database.db;
      const fresh = await newCompany(t);
      const freshAdmin = await signedIn(t, 'company_admin', { companyId: fresh.id });
      const scope = { kind: 'company' as const, companyId: fresh.id };
      const version = async () => {
        const [row] = await queryRows<{ version: string }>(
          db,
          sql`SELECT version::text AS version FROM company_employee_counts
               WHERE company_id = ${fresh.id}`,
        );
        return row!.version;
      };
      const taken = async () => {
        const [row] = await queryRows<{ n: string }>(
          db,
          sql`SELECT last_value::text AS n FROM company_employee_versions`,
        );
        return BigInt(row!.n);
      };
      const listed = async (query: string, who = freshAdmin) =>
        (await call(who, 'GET', `?page_size=10${query}`)).json().total as number;
      const rename = (staff: string, name: string) =>
        db.execute(
          sql`UPDATE employees SET name = ${name}
               WHERE company_id = ${fresh.id} AND employee_id = ${staff}`,
        );

      const rows = Array.from({ length: 12 }, (_, i) => `KV${i},,Kept ${i},active`);
      await importEmployees(
        t.app.deps,
        scope,
        Buffer.from(`employee_id,email,name,status\r\n${rows.join('\r\n')}\r\n`),
      );
      expect(await listed('&search=Kept')).toBe(12);
      expect(await listed('&status=active')).toBe(12);
      expect(await listed(`&search=Kept&company_id=${fresh.id}`, admin)).toBe(12);

      // Kept: a change the version does not see (its trigger off) leaves the count as it was
      // counted, for the company admin and for the platform naming the company.
      const before = await version();
      await db.execute(sql`ALTER TABLE employees DISABLE TRIGGER employees_version_bump`);
      try {
        await rename('KV0', 'Hidden 0');
      } finally {
        await db.execute(sql`ALTER TABLE employees ENABLE TRIGGER employees_version_bump`);
      }
      expect(await version()).toBe(before);
      expect(await listed('&search=Kept')).toBe(12);
      expect(await listed(`&search=Kept&company_id=${fresh.id}`, admin)).toBe(12);
      // A search not yet kept is counted.
      expect(await listed('&search=Hidden')).toBe(1);

      // Each change a count reads moves the version, and the lists count again.
      const moves = async (change: () => Promise<unknown>) => {
        const was = await version();
        await change();
        const now = await version();
        expect(BigInt(now) > BigInt(was), `${was} → ${now}`).toBe(true);
      };
      await moves(() => rename('KV1', 'Renamed 1'));
      expect(await listed('&search=Kept')).toBe(10);
      const made = await create({ name: 'Kept new' }, freshAdmin);
      expect(await listed('&search=Kept')).toBe(11);
      await moves(() => call(freshAdmin, 'PUT', `/${made.id}`, { email: 'kept.new@example.com' }));
      await moves(() => call(freshAdmin, 'PUT', `/${made.id}`, { employee_id: 'KVNEW' }));
      await moves(() => call(freshAdmin, 'PATCH', `/${made.id}/status`, { status: 'inactive' }));
      expect(await listed('&status=active')).toBe(12);
      expect(await listed('&search=Kept&status=active')).toBe(10);
      await moves(() => call(freshAdmin, 'DELETE', `/${made.id}`));
      expect(await listed('&search=Kept')).toBe(10);
      await moves(() =>
        db.execute(sql`UPDATE employees SET deleted_at = NULL WHERE id = ${made.id}`),
      );
      expect(await listed('&search=Kept')).toBe(11);
      await moves(() => db.execute(sql`DELETE FROM employees WHERE id = ${made.id}`));
      expect(await listed('&search=Kept')).toBe(10);

      // Many rows changed in one transaction take one value of the sequence.
      const first = await taken();
      await db.execute(
        sql`UPDATE employees SET name = name || ' again'
             WHERE company_id = ${fresh.id} AND name LIKE 'Kept%'`,
      );
      expect(await taken()).toBe(first + 1n);
      expect(await listed('&search=again')).toBe(10);

      // What a count does not read leaves the version: a monthly amount, a balance (an order).
      const same = await version();
      const payee = (await call(freshAdmin, 'GET', '?page_size=10&search=KV2')).json().data[0] as {
        id: number;
        employee_id: string;
      };
      await call(freshAdmin, 'PUT', `/${payee.id}`, { monthly_tokens: 25 });
      await issueToCompany(t.app.deps, null, { company_id: fresh.id, amount: 100 });
      await distributeToEmployees(t.app.deps, scope, null, {
        items: [{ employee_id: payee.id, amount: 40 }],
      });
      await order(t.app.deps, terminal, fresh, payee, 15);
      expect(await version()).toBe(same);
      expect(await listed('&search=again')).toBe(10);
    });

    it('gives a search the same pages and total as the list it narrows, a page past the end included', async () => {
      // A page that is not full gives the total without a count (decision 0054); a full page and a
      // page past the end count.
      const tag = `p${Date.now().toString(36)}`;
      const made = [];
      for (let i = 0; i < 12; i += 1) {
        // Names in an order unlike the ids': a … l, five letters apart.
        const name = `${tag} ${String.fromCharCode(97 + ((i * 5) % 12))}`;
        made.push({ id: (await create({ name })).id, name });
      }
      const byNameDesc = [...made].sort((a, b) => (b.name < a.name ? -1 : 1)).map((e) => e.id);
      const pageOf = async (query: string) => {
        const res = (await call(acmeAdmin, 'GET', query)).json();
        return { ids: res.data.map((e: { id: number }) => e.id), total: res.total };
      };
      const sorted = `?search=${tag}&sort=name&order=desc&page_size=10`;
      expect(await pageOf(`${sorted}&page=1`)).toEqual({ ids: byNameDesc.slice(0, 10), total: 12 });
      expect(await pageOf(`${sorted}&page=2`)).toEqual({ ids: byNameDesc.slice(10), total: 12 });
      expect(await pageOf(`${sorted}&page=3`)).toEqual({ ids: [], total: 12 });
      expect(await pageOf(`?search=${tag}-none&page=2&page_size=10`)).toEqual({
        ids: [],
        total: 0,
      });
      // The whole company's list: a full page is counted, a short last page and a page past the
      // end say the same total.
      const all = await pageOf('?page=1&page_size=10');
      expect(all.ids).toHaveLength(10);
      const lastPage = Math.ceil(all.total / 10);
      const last = await pageOf(`?page=${lastPage}&page_size=10`);
      expect(last.total).toBe(all.total);
      expect(last.ids).toHaveLength(all.total - (lastPage - 1) * 10);
      expect(await pageOf(`?page=${lastPage + 1}&page_size=10`)).toEqual({
        ids: [],
        total: all.total,
      });
    });

    it('lets admin and Group HR read a company with company_id, and not write', async () => {
      const employee = await create();
      for (const reader of [admin, hr]) {
        const list = await call(
          reader,
          'GET',
          `?company_id=${acme.id}&search=${employee.employee_id}`,
        );
        expect(list.json()).toMatchObject({
          total: 1,
          data: [{ id: employee.id, company_id: acme.id }],
        });
        expect((await call(reader, 'GET', `/${employee.id}`)).json().data.id).toBe(employee.id);
        expect((await call(reader, 'PUT', `/${employee.id}`, { name: 'x' })).statusCode).toBe(403);
        expect((await call(reader, 'DELETE', `/${employee.id}`)).statusCode).toBe(403);
      }
    });

    it('finds what ILIKE finds, letters beyond ASCII and literal wildcards included', async () => {
      const tag = `w${Date.now().toString(36)}`;
      // U+0001 joins the parts of the stored search text (migration 0026): a name may hold it.
      for (const name of ['Åsa', 'ÉLODIE', 'Ann_Lee', '100%', 'back\\slash', 'one\u0001two2']) {
        await create({ name: `${name} ${tag}`, email: `${name.length}.${tag}@acme.example` });
      }
      const terms = ['åsa', 'ÅSA', 'élodie', 'n_l', 'nnl', '100%', '%', '\\', tag.toUpperCase()];
      // What only spans two columns (the end of a name, the start of its email) is no match,
      // though the search index's one text holds it (decision 0042).
      terms.push(`${tag} 3.${tag}`, `${tag}\u00018.${tag}`, 'one\u0001two', `two ${tag}`);
      for (const term of [...terms, 'ann', 'e', 'el', '.W']) {
        const pattern = likePattern(term);
        const expected = await queryRows<{ id: unknown }>(
          t.app.deps.database.db,
          sql`SELECT id FROM employees
               WHERE company_id = ${acme.id} AND deleted_at IS NULL
                 AND (employee_id ILIKE ${pattern} OR name ILIKE ${pattern} OR email ILIKE ${pattern})
               ORDER BY id`,
        );
        const found = await call(
          acmeAdmin,
          'GET',
          `?search=${encodeURIComponent(term)}&page_size=50`,
        );
        expect(found.json().total, term).toBe(expected.length);
        expect(
          found.json().data.map((e: { id: number }) => e.id),
          term,
        ).toEqual(expected.slice(0, 50).map((r) => Number(r.id)));
      }
      const all = await call(acmeAdmin, 'GET', `?search=${tag.toUpperCase()}`);
      expect(all.json().total).toBe(6);
      const spanning = await call(
        acmeAdmin,
        'GET',
        `?search=${encodeURIComponent(`${tag} 3.${tag}`)}`,
      );
      expect(spanning.json().total).toBe(0);
      const oneColumn = await call(acmeAdmin, 'GET', `?search=${encodeURIComponent(`3.${tag}`)}`);
      expect(oneColumn.json().total).toBe(1);
    });

    it("serves a search of three characters or more from the trigram index of the stored search text, a company's with its company in the index", async () => {
      const everyCompany = await t.app.deps.database.db.transaction(async (tx) => {
        // With sequential and plain index scans priced out, only the trigram index can serve it.
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        await tx.execute(sql`SET LOCAL enable_indexscan = off`);
        const rows = await queryRows<Record<string, string>>(
          tx,
          sql`EXPLAIN SELECT count(*) FROM employees e WHERE ${searchMatches(likePattern('ann'))}`,
        );
        return rows.map((r) => Object.values(r)[0]).join('\n');
      });
      expect(everyCompany).toContain('employees_search_idx');
      expect(everyCompany).not.toContain('Seq Scan');
      // The company leads the index (migration 0025), so a search within one company is
      // narrowed to it in the index, not by reading every company's matches from the table
      // (which plan the planner takes depends on the company's size: bench/RESULTS.md).
      const [index] = await queryRows<{ indexdef: string }>(
        t.app.deps.database.db,
        sql`SELECT indexdef FROM pg_indexes WHERE indexname = 'employees_search_idx'`,
      );
      expect(index!.indexdef).toMatch(/USING gin \(company_id, search_text gin_trgm_ops\)/);
      // The search is the stored text's test alone: no lower() of a column left to compute.
      expect(everyCompany).not.toMatch(/lower\((e\.)?(employee_id|name|email)\)/);
    });

    it("counts a search too short for trigrams from the company's live index alone", async () => {
      // One or two characters have no trigram to look up: the company's entries are read, and
      // their search text is in the index (migration 0029), so no row of the table is.
      const plan = await t.app.deps.database.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
        const rows = await queryRows<Record<string, string>>(
          tx,
          sql`EXPLAIN SELECT count(*) FROM employees e
               WHERE e.company_id = ${acme.id} AND e.deleted_at IS NULL
                 AND ${searchMatches(likePattern('a'))}`,
        );
        return rows.map((r) => Object.values(r)[0]).join('\n');
      });
      expect(plan).toMatch(/Index Only Scan using employees_company_live_idx/);
      // And the answer is the search's: a two-letter term finds what ILIKE finds.
      await create({ name: 'Azq Short' });
      await create({ name: 'Bzq Short' });
      const [expected] = await queryRows<{ n: unknown }>(
        t.app.deps.database.db,
        sql`SELECT count(*) AS n FROM employees
             WHERE company_id = ${acme.id} AND deleted_at IS NULL
               AND (employee_id ILIKE '%ZQ%' OR name ILIKE '%ZQ%' OR email ILIKE '%ZQ%')`,
      );
      const found = await call(acmeAdmin, 'GET', '?search=ZQ');
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json().total).toBe(Number(expected!.n));
      expect(Number(expected!.n)).toBeGreaterThan(1);
    });
  });

  describe('tenant isolation', () => {
    it('answers 404 to another company’s admin reading, updating, deleting or changing status', async () => {
      const employee = await create({ name: 'Private' });
      const url = `/${employee.id}`;
      for (const res of [
        await call(otherAdmin, 'GET', url),
        await call(otherAdmin, 'PUT', url, { name: 'Stolen' }),
        await call(otherAdmin, 'DELETE', url),
        await call(otherAdmin, 'PATCH', `${url}/status`, { status: 'inactive' }),
        await call(otherAdmin, 'POST', `${url}/renew`),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'RECORD_NOT_FOUND' });
      }
      expect((await call(acmeAdmin, 'GET', url)).json().data).toMatchObject({
        name: 'Private',
        status: 'active',
      });
    });
  });

  describe('delete', () => {
    it('keeps the ledger history, hides the employee, refuses its orders and frees its email', async () => {
      const employee = await create({ email: 'leaver@acme.example' });
      await issueToCompany(t.app.deps, null, { company_id: acme.id, amount: 500 });
      await distributeToEmployees(t.app.deps, { kind: 'company', companyId: acme.id }, null, {
        items: [{ employee_id: employee.id, amount: 100 }],
      });
      await order(t.app.deps, terminal, acme, employee, 30);
      const db = t.db.database.db;
      const before = await walletRows(db, acme.id, employee.id);
      expect(before).toHaveLength(2);

      const res = await call(acmeAdmin, 'DELETE', `/${employee.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { ok: true } });

      expect((await call(acmeAdmin, 'GET', `/${employee.id}`)).statusCode).toBe(404);
      expect((await call(acmeAdmin, 'DELETE', `/${employee.id}`)).statusCode).toBe(404);
      expect(
        (await call(acmeAdmin, 'PATCH', `/${employee.id}/status`, { status: 'active' })).statusCode,
      ).toBe(404);
      expect(
        (await call(admin, 'GET', `?company_id=${acme.id}&search=${employee.employee_id}`)).json()
          .total,
      ).toBe(0);
      expect(await walletRows(db, acme.id, employee.id)).toEqual(before);
      const [row] = await queryRows<{ status: string; deleted: boolean }>(
        db,
        sql`SELECT status, deleted_at IS NOT NULL AS deleted FROM employees WHERE id = ${employee.id}`,
      );
      expect(row).toMatchObject({ status: 'inactive', deleted: true });
      expect(await codeOf(order(t.app.deps, terminal, acme, employee, 10))).toBe('USER_INACTIVE');
      await assertLedgerInvariants(db);

      const audit = await auditRowsOf(t, 'employee', employee.id);
      expect(audit.at(-1)).toMatchObject({
        action: 'delete',
        before: { id: employee.id },
        after: null,
      });

      // The email is free again; the staff number stays reserved (decision 0008).
      await create({ email: 'leaver@acme.example' });
      const again = await call(acmeAdmin, 'POST', '', {
        employee_id: employee.employee_id,
        status: 'active',
      });
      expect(again.json()).toMatchObject({ code: 'EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY' });
    });
  });

  // Last: the reset moves every company of this app into the next month.
  describe('token month totals', () => {
    it('counts a refund of last month’s order in available tokens, never as negative consumption', async () => {
      const employee = await create();
      await issueToCompany(t.app.deps, null, { company_id: acme.id, amount: 1000 });
      await distributeToEmployees(t.app.deps, { kind: 'company', companyId: acme.id }, null, {
        items: [{ employee_id: employee.id, amount: 200 }],
      });
      const january = await order(t.app.deps, terminal, acme, employee, 80);
      const jan = (await call(acmeAdmin, 'GET', `/${employee.id}`)).json().data;
      expect(jan).toMatchObject({ available_tokens: 120, issued_tokens: 200, consumed_tokens: 80 });

      t.clock.set('2026-02-01T00:00:01Z');
      await runMonthlyResets(t.app.deps);
      // The reset expired both balances; February starts from fresh tokens.
      await issueToCompany(t.app.deps, null, { company_id: acme.id, amount: 100 });
      await distributeToEmployees(t.app.deps, { kind: 'company', companyId: acme.id }, null, {
        items: [{ employee_id: employee.id, amount: 50 }],
      });
      const february = await order(t.app.deps, terminal, acme, employee, 20);
      await refund(t.app.deps, terminal, january.id, 'cancelled');
      await refund(t.app.deps, terminal, february.id, 'item_removed', 5);
      // Read through the service: the sessions expired while the clock moved a month on.
      const feb = await getEmployee(
        t.app.deps,
        { kind: 'company', companyId: acme.id },
        employee.id,
      );
      expect(feb).toMatchObject({
        token_month: '2026-02',
        issued_tokens: 50,
        // February's order less its own refund; January's refund is not subtracted.
        consumed_tokens: 15,
        available_tokens: 50 - 20 + 80 + 5,
      });
      await assertLedgerInvariants(t.db.database.db);
    });
  });
});

// Two companies' admins writing the same address at the same moment (migration 0028): the second
// transaction passes the services' check (the first has not committed), then waits on the unique
// index, and is refused once the first commits. PGlite runs one statement at a time, so the race
// only exists on PostgreSQL.
const postgresOnly = (await testDatabaseKinds()).filter((kind) => kind === 'postgres');
describe.each(postgresOnly)('employee emails written at the same moment on %s', (kind) => {
  let t: TestApp;
  let acme: Company;
  let other: Company;

  beforeAll(async () => {
    t = await createTestApp(kind);
    acme = await newCompany(t);
    other = await newCompany(t);
  });
  afterAll(() => t.close());

  /** Creates an employee of `other` holding `email` in a transaction left open until released. */
  async function heldOpen(email: string, staffNumber: string) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const isWritten = new Promise<void>((resolve) => (written = resolve));
    const committed = inTransaction(t.app.deps.database, async (tx) => {
      await createEmployeeIn(
        tx,
        t.app.deps,
        { kind: 'company', companyId: other.id },
        { employee_id: staffNumber, email, status: 'active' },
      );
      written();
      await released;
    });
    await isWritten;
    return { release, committed };
  }

  const count = async (email: string) => {
    const [row] = await queryRows<{ n: unknown }>(
      t.app.deps.database.db,
      sql`SELECT count(*) AS n FROM employees WHERE lower(email) = lower(${email})`,
    );
    return Number(row!.n);
  };

  it('refuses the second of two creations in different companies', async () => {
    const first = await heldOpen('race.create@example.com', 'R0001');
    const second = inTransaction(t.app.deps.database, (tx) =>
      createEmployeeIn(
        tx,
        t.app.deps,
        { kind: 'company', companyId: acme.id },
        { employee_id: 'R0002', email: 'RACE.create@example.com', status: 'active' },
      ),
    );
    second.catch(() => undefined);
    // Its check found no owner (the first is not committed); its INSERT waits on the index.
    await untilAStatementWaits(t.app.deps.database);
    first.release();
    await first.committed;
    await expect(second).rejects.toMatchObject({ code: 'EMAIL_EXISTING_IN_OTHER_COMPANY' });
    expect(await count('race.create@example.com')).toBe(1);
  });

  it('refuses an import that meets the address another company wrote meanwhile, whole', async () => {
    const first = await heldOpen('race.import@example.com', 'R0003');
    const file = Buffer.from(
      'employee_id,email,name,status\r\nR0004,first.free@example.com,Free,active\r\n' +
        'R0005,Race.Import@example.com,Raced,active\r\n',
    );
    const imported = importEmployees(t.app.deps, { kind: 'company', companyId: acme.id }, file);
    imported.catch(() => undefined);
    await untilAStatementWaits(t.app.deps.database);
    first.release();
    await first.committed;
    await expect(imported).rejects.toMatchObject({ code: 'EMAIL_EXISTING_IN_OTHER_COMPANY' });
    expect(await count('race.import@example.com')).toBe(1);
    expect(await count('first.free@example.com')).toBe(0);
  });
});
