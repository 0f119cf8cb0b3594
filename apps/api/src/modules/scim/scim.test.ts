// SCIM 2.0 provisioning (DESIGN 9, issue 45 item 2, decision 0087): the company tokens, the
// sequences Okta and Entra send replayed against the API, the same result as by hand and by CSV,
// tenant isolation, revoked tokens, paging and the RFC 7644 error bodies.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs, requestsAs } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { multipart } from '../../../test/http';
import { auditRowsOf, newCompany, signedIn, type SignedInUser } from '../../../test/management';
import { queryRows } from '../../db/client';

const SCIM_JSON = 'application/scim+json';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

describe.each(await testDatabaseKinds())('SCIM provisioning on %s', (kind) => {
  let t: TestApp;
  let acme: Company;
  let other: Company;
  let admin: SignedInUser;
  let acmeAdmin: SignedInUser;
  let otherAdmin: SignedInUser;
  let acmeToken: string;
  let otherToken: string;
  const tag = () => crypto.randomBytes(3).toString('hex');

  const as = (who: SignedInUser) => requestsAs(t.app, who.session);

  const scim = (token: string, method: string, url: string, body?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: `/scim/v2${url}`,
      headers: {
        authorization: `Bearer ${token}`,
        accept: SCIM_JSON,
        ...(body !== undefined ? { 'content-type': SCIM_JSON } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });

  const newToken = async (who: SignedInUser, company: Company, description = 'Okta') => {
    const res = await as(who).post(`/api/v1/companies/${company.id}/scim-tokens`, { description });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; token: string };
  };

  const employeesOf = async (who: SignedInUser) => {
    const res = await as(who).get('/api/v1/employees?page_size=50&sort=employee_id');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Employee[];
  };

  beforeAll(async () => {
    // Webhook targets resolve to a public address without DNS (nothing is delivered in tests).
    t = await createTestApp(
      kind,
      {},
      { resolve: async () => [{ address: '93.184.216.34', family: 4 }] },
    );
    acme = await newCompany(t);
    other = await newCompany(t);
    admin = await signedIn(t, 'admin');
    acmeAdmin = await signedIn(t, 'company_admin', { companyId: acme.id });
    otherAdmin = await signedIn(t, 'company_admin', { companyId: other.id });
    acmeToken = (await newToken(acmeAdmin, acme)).token;
    otherToken = (await newToken(otherAdmin, other)).token;
  });
  afterAll(() => t.close());

  describe('tokens', () => {
    it('are made by the company’s admins (the admin for any company), shown once, stored hashed, listed and revoked, all audited', async () => {
      const made = await newToken(acmeAdmin, acme, 'Entra ID');
      expect(made.token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
      const byAdmin = await newToken(admin, acme, 'By the admin');

      const listed = await as(acmeAdmin).get(`/api/v1/companies/${acme.id}/scim-tokens`);
      expect(listed.statusCode).toBe(200);
      const tokens = listed.json().data as { id: number; description: string; prefix: string }[];
      expect(tokens.map((x) => x.description)).toEqual(['Okta', 'Entra ID', 'By the admin']);
      expect(listed.body).not.toContain(made.token);
      expect(tokens.find((x) => x.id === made.id)?.prefix).toBe(made.token.slice(0, 11));

      const audit = await auditRowsOf(t, 'scim_token', made.id);
      expect(audit.map((r) => r.action)).toEqual(['create']);
      expect(JSON.stringify(audit)).not.toContain(made.token.slice(11));

      // It works, then, once revoked, is 401 with an RFC 7644 error body.
      expect((await scim(made.token, 'GET', '/ServiceProviderConfig')).statusCode).toBe(200);
      const revoked = await as(acmeAdmin).delete(
        `/api/v1/companies/${acme.id}/scim-tokens/${made.id}`,
      );
      expect(revoked.statusCode, revoked.body).toBe(200);
      const refused = await scim(made.token, 'GET', '/Users');
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['content-type']).toContain(SCIM_JSON);
      expect(refused.headers['www-authenticate']).toContain('Bearer');
      expect(refused.json()).toMatchObject({ schemas: [ERROR], status: '401' });
      expect((await auditRowsOf(t, 'scim_token', made.id)).map((r) => r.action)).toEqual([
        'create',
        'revoke',
      ]);
      // Revoked twice is not found; the admin's token still works.
      expect(
        (await as(acmeAdmin).delete(`/api/v1/companies/${acme.id}/scim-tokens/${made.id}`))
          .statusCode,
      ).toBe(404);
      expect((await scim(byAdmin.token, 'GET', '/Users?count=1')).statusCode).toBe(200);
      const after = (await as(admin).get(`/api/v1/companies/${acme.id}/scim-tokens`)).json()
        .data as { id: number }[];
      expect(after.map((x) => x.id)).not.toContain(made.id);
    });

    it('another company’s admin cannot make, list or revoke them (404); other roles are 403; no token is 401', async () => {
      const own = await newToken(acmeAdmin, acme, 'Kept');
      const base = `/api/v1/companies/${acme.id}/scim-tokens`;
      expect((await as(otherAdmin).post(base, { description: 'x' })).statusCode).toBe(404);
      expect((await as(otherAdmin).get(base)).statusCode).toBe(404);
      expect((await as(otherAdmin).delete(`${base}/${own.id}`)).statusCode).toBe(404);
      expect(
        (await as(otherAdmin).delete(`/api/v1/companies/${other.id}/scim-tokens/${own.id}`))
          .statusCode,
      ).toBe(404);
      expect(
        (await as(otherAdmin).get(`/api/v1/companies/${acme.id}/scim-requests`)).statusCode,
      ).toBe(404);
      const hr = await signedIn(t, 'super_hr');
      expect((await as(hr).get(base)).statusCode).toBe(403);
      expect((await as(admin).get('/api/v1/companies/999999/scim-tokens')).statusCode).toBe(404);
      expect((await as(acmeAdmin).post(base, { description: ' ' })).statusCode).toBe(400);
      expect((await scim(own.token, 'GET', '/Users?count=0')).statusCode).toBe(200);
      for (const authorization of [undefined, 'Bearer', 'Basic abc', `Bearer ${own.token}x`]) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/scim/v2/Users',
          headers: authorization ? { authorization } : {},
        });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ schemas: [ERROR], status: '401' });
      }
    });
  });

  it('replays what Okta sends when a user is assigned, updated, deactivated and reassigned', async () => {
    const staff = `OK${tag()}`;
    const email = `${staff.toLowerCase()}@acme.example`;
    // Okta looks the user up first.
    const lookup = await scim(
      acmeToken,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${staff}"`)}&startIndex=1&count=100`,
    );
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toMatchObject({ totalResults: 0, Resources: [], startIndex: 1 });

    const created = await scim(acmeToken, 'POST', '/Users', {
      schemas: [USER],
      userName: staff,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ primary: true, value: email, type: 'work' }],
      displayName: 'Ada Lovelace',
      locale: 'en-US',
      externalId: '00u1abcd',
      groups: [],
      password: 'ignored-Pa55',
      active: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['content-type']).toContain(SCIM_JSON);
    const user = created.json();
    expect(user).toMatchObject({
      schemas: [USER],
      userName: staff,
      displayName: 'Ada Lovelace',
      emails: [{ value: email, primary: true, type: 'work' }],
      active: true,
      meta: { resourceType: 'User' },
    });
    expect(created.headers.location).toBe(user.meta.location);
    expect(created.body).not.toContain('ignored-Pa55');

    expect((await scim(acmeToken, 'GET', `/Users/${user.id}`)).json()).toEqual(user);

    // A profile change: Okta PUTs the whole user.
    const replaced = await scim(acmeToken, 'PUT', `/Users/${user.id}`, {
      schemas: [USER],
      id: user.id,
      userName: staff,
      name: { givenName: 'Ada', familyName: 'King' },
      emails: [{ primary: true, value: email, type: 'work' }],
      displayName: 'Ada Lovelace',
      active: true,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ displayName: 'Ada King', active: true });

    // Unassigned: deactivated, never deleted.
    const deactivated = await scim(acmeToken, 'PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect(deactivated.json()).toMatchObject({ active: false, userName: staff });
    const listed = (await employeesOf(acmeAdmin)).find((e) => e.employee_id === staff);
    expect(listed).toMatchObject({ status: 'inactive', name: 'Ada King', email });

    // Reassigned: found by userName, activated again.
    const found = await scim(
      acmeToken,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${staff}"`)}&startIndex=1&count=100`,
    );
    expect(found.json()).toMatchObject({ totalResults: 1, Resources: [{ id: user.id }] });
    const reactivated = await scim(acmeToken, 'PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(reactivated.json()).toMatchObject({ active: true });

    const audit = await auditRowsOf(t, 'employee', user.id);
    expect(audit.map((r) => r.action)).toEqual([
      'create',
      'update',
      'status_change',
      'status_change',
    ]);
  });

  it('replays what Entra ID sends: PATCH with op "Replace" in capitals and active as the string "False"', async () => {
    const staff = `EN${tag()}`;
    const email = `${staff.toLowerCase()}@acme.example`;
    const lookup = await scim(
      acmeToken,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${staff}"`)}`,
    );
    expect(lookup.json()).toMatchObject({ totalResults: 0 });
    const created = await scim(acmeToken, 'POST', '/Users', {
      schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: staff,
      userName: staff,
      active: true,
      displayName: 'Li Lei',
      emails: [{ primary: true, type: 'work', value: email }],
      meta: { resourceType: 'User' },
      name: { formatted: 'Li Lei', familyName: 'Li', givenName: 'Lei' },
      roles: [],
    });
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json();
    expect(user).toMatchObject({ displayName: 'Li Lei', active: true });

    const updated = await scim(acmeToken, 'PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'displayName', value: 'Han Meimei' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: `new.${email}` },
        { op: 'Replace', path: 'name.familyName', value: 'Han' },
        { op: 'Add', path: 'externalId', value: staff },
      ],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      displayName: 'Han Meimei',
      emails: [{ value: `new.${email}`, primary: true }],
    });

    const off = await scim(acmeToken, 'PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ active: false });
    const on = await scim(acmeToken, 'PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
    });
    expect(on.json()).toMatchObject({ active: true });

    // DELETE deactivates: the employee and its history stay.
    const deleted = await scim(acmeToken, 'DELETE', `/Users/${user.id}`);
    expect(deleted.statusCode).toBe(204);
    const kept = await scim(acmeToken, 'GET', `/Users/${user.id}`);
    expect(kept.json()).toMatchObject({ active: false, userName: staff });
    expect((await employeesOf(acmeAdmin)).find((e) => e.employee_id === staff)).toMatchObject({
      status: 'inactive',
      name: 'Han Meimei',
      email: `new.${email}`,
    });
    expect((await auditRowsOf(t, 'employee', user.id)).map((r) => r.action)).toEqual([
      'create',
      'update',
      'status_change',
      'status_change',
      'status_change',
    ]);
  });

  it('leaves the employee list and audit log as the same changes by hand and by CSV do', async () => {
    const byScim = await newCompany(t);
    const byHand = await newCompany(t);
    const byCsv = await newCompany(t);
    const scimAdmin = await signedIn(t, 'company_admin', { companyId: byScim.id });
    const handAdmin = await signedIn(t, 'company_admin', { companyId: byHand.id });
    const csvAdmin = await signedIn(t, 'company_admin', { companyId: byCsv.id });
    const token = (await newToken(scimAdmin, byScim)).token;
    const people = [1, 2, 3].map((n) => ({ staff: `S${n}${tag()}`, name: `Person ${n}` }));
    const emailOf = (company: Company, staff: string) => `${staff}.${company.id}@x.example`;

    // Both companies' integrators hear of every employee change.
    for (const who of [scimAdmin, handAdmin]) {
      const hook = await as(who).post('/api/v1/webhooks', {
        url: 'https://hooks.example.test/employees',
        events: ['employee.created', 'employee.updated', 'employee.deactivated'],
      });
      expect(hook.statusCode, hook.body).toBe(201);
    }

    // Created, then the second renamed and the third deactivated.
    const ids: Record<string, string> = {};
    for (const p of people) {
      const res = await scim(token, 'POST', '/Users', {
        schemas: [USER],
        userName: p.staff,
        displayName: p.name,
        emails: [{ value: emailOf(byScim, p.staff), primary: true }],
        active: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      ids[p.staff] = res.json().id;
    }
    await scim(token, 'PUT', `/Users/${ids[people[1]!.staff]}`, {
      schemas: [USER],
      userName: people[1]!.staff,
      displayName: 'Renamed',
      emails: [{ value: emailOf(byScim, people[1]!.staff), primary: true }],
      active: true,
    });
    await scim(token, 'PATCH', `/Users/${ids[people[2]!.staff]}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });

    // The same by hand.
    const handIds: number[] = [];
    for (const p of people) {
      const res = await as(handAdmin).post('/api/v1/employees', {
        employee_id: p.staff,
        name: p.name,
        email: emailOf(byHand, p.staff),
        status: 'active',
      });
      expect(res.statusCode, res.body).toBe(201);
      handIds.push(res.json().data.id);
    }
    await as(handAdmin).put(`/api/v1/employees/${handIds[1]}`, { name: 'Renamed' });
    await as(handAdmin).patch(`/api/v1/employees/${handIds[2]}/status`, { status: 'inactive' });

    // The end state by CSV.
    const csv = [
      'employee_id,email,name,status',
      `${people[0]!.staff},${emailOf(byCsv, people[0]!.staff)},${people[0]!.name},active`,
      `${people[1]!.staff},${emailOf(byCsv, people[1]!.staff)},Renamed,active`,
      `${people[2]!.staff},${emailOf(byCsv, people[2]!.staff)},${people[2]!.name},inactive`,
    ].join('\n');
    const imported = await injectAs(t.app, csvAdmin.session, {
      method: 'POST',
      url: '/api/v1/employees/import',
      ...multipart(`${csv}\n`),
    });
    expect(imported.statusCode, imported.body).toBe(200);

    const shape = (company: Company) => (e: Employee) => ({
      employee_id: e.employee_id,
      name: e.name,
      email: e.email?.replace(`.${company.id}@`, '@'),
      status: e.status,
      monthly_tokens: e.monthly_tokens,
      available_tokens: e.available_tokens,
      token_month: e.token_month,
    });
    const scimList = (await employeesOf(scimAdmin)).map(shape(byScim));
    expect(scimList).toHaveLength(3);
    expect(scimList).toEqual((await employeesOf(handAdmin)).map(shape(byHand)));
    expect(scimList).toEqual((await employeesOf(csvAdmin)).map(shape(byCsv)));

    // The audit log: one row per change, the same actions and records as by hand.
    const auditOf = async (who: SignedInUser, company: Company, id: string | number) => {
      const res = await as(who).get(`/api/v1/audit-log?entity_type=employee&entity_id=${id}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { action: string; after: Record<string, unknown> | null }[])
        .map((r) => ({
          action: r.action,
          name: r.after?.name,
          status: r.after?.status,
          email: String(r.after?.email).replace(`.${company.id}@`, '@'),
        }))
        .reverse();
    };
    for (const [i, p] of people.entries()) {
      expect(await auditOf(scimAdmin, byScim, ids[p.staff]!)).toEqual(
        await auditOf(handAdmin, byHand, handIds[i]!),
      );
    }

    // The same webhook events, with the same changed fields.
    const eventsOf = (company: Company) =>
      queryRows<{ type: string; employee_id: string; changed: unknown; status: string }>(
        t.db.database.db,
        sql`SELECT type, data->>'employee_id' AS employee_id, data->'changed' AS changed,
                   data->>'status' AS status
              FROM webhook_events WHERE company_id = ${company.id} ORDER BY id`,
      );
    const scimEvents = await eventsOf(byScim);
    expect(scimEvents.map((e) => e.type)).toEqual([
      'employee.created',
      'employee.created',
      'employee.created',
      'employee.updated',
      'employee.deactivated',
    ]);
    expect(scimEvents).toEqual(await eventsOf(byHand));
  });

  it('a token of one company cannot see or touch another company’s employees (404)', async () => {
    const staff = `B${tag()}`;
    const res = await scim(otherToken, 'POST', '/Users', {
      schemas: [USER],
      userName: staff,
      emails: [{ value: `${staff}@other.example`, primary: true }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    const body = { schemas: [USER], userName: staff, active: false };
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', body],
      [
        'PATCH',
        { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] },
      ],
      ['DELETE', undefined],
    ] as const) {
      const refused = await scim(acmeToken, method, `/Users/${id}`, payload);
      expect(refused.statusCode, method).toBe(404);
      expect(refused.json()).toMatchObject({ schemas: [ERROR], status: '404' });
    }
    const filtered = await scim(
      acmeToken,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${staff}"`)}`,
    );
    expect(filtered.json()).toMatchObject({ totalResults: 0 });
    expect((await scim(otherToken, 'GET', `/Users/${id}`)).json()).toMatchObject({
      active: true,
    });
    // The same staff number in another company is its own employee.
    expect((await scim(acmeToken, 'POST', '/Users', { userName: staff })).statusCode).toBe(201);
  });

  it('pages with startIndex and count, filters by userName, and answers errors as RFC 7644 bodies', async () => {
    const company = await newCompany(t);
    const companyAdmin = await signedIn(t, 'company_admin', { companyId: company.id });
    const token = (await newToken(companyAdmin, company)).token;
    const staff = [1, 2, 3, 4, 5].map((n) => `P${n}${tag()}`);
    for (const s of staff) {
      expect(
        (await scim(token, 'POST', '/Users', { schemas: [USER], userName: s })).statusCode,
      ).toBe(201);
    }
    const page = await scim(token, 'GET', '/Users?startIndex=2&count=2');
    expect(page.json()).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 5,
      startIndex: 2,
      itemsPerPage: 2,
    });
    expect(page.json().Resources.map((r: { userName: string }) => r.userName)).toEqual(
      staff.slice(1, 3),
    );
    expect((await scim(token, 'GET', '/Users?startIndex=5&count=10')).json()).toMatchObject({
      totalResults: 5,
      itemsPerPage: 1,
    });
    expect((await scim(token, 'GET', '/Users?startIndex=9')).json()).toMatchObject({
      totalResults: 5,
      itemsPerPage: 0,
      Resources: [],
    });
    expect((await scim(token, 'GET', '/Users?count=0')).json()).toMatchObject({
      totalResults: 5,
      itemsPerPage: 0,
    });
    expect((await scim(token, 'GET', '/Users?startIndex=0&count=1')).json()).toMatchObject({
      startIndex: 1,
      Resources: [{ userName: staff[0] }],
    });
    const one = await scim(
      token,
      'GET',
      `/Users?filter=${encodeURIComponent(`username EQ "${staff[3]}"`)}`,
    );
    expect(one.json()).toMatchObject({ totalResults: 1, Resources: [{ userName: staff[3] }] });

    for (const filter of ['userName co "P"', 'userName eq', 'displayName eq "x"']) {
      const bad = await scim(token, 'GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expect(bad.statusCode, filter).toBe(400);
      expect(bad.json()).toMatchObject({
        schemas: [ERROR],
        status: '400',
        scimType: 'invalidFilter',
      });
    }
    expect((await scim(token, 'GET', '/Users?count=abc')).statusCode).toBe(400);

    const duplicate = await scim(token, 'POST', '/Users', { schemas: [USER], userName: staff[0] });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({
      schemas: [ERROR],
      status: '409',
      scimType: 'uniqueness',
    });
    const badEmail = await scim(token, 'POST', '/Users', {
      userName: `Q${tag()}`,
      emails: [{ value: 'not-an-email', primary: true }],
    });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    expect(badEmail.json().detail).toContain('email');
    const noName = await scim(token, 'POST', '/Users', { schemas: [USER] });
    expect(noName.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    const badPatch = await scim(
      token,
      'PATCH',
      `/Users/${(await scim(token, 'GET', '/Users?count=1')).json().Resources[0].id}`,
      {
        schemas: [PATCH_OP],
        Operations: [{ op: 'move', path: 'active', value: false }],
      },
    );
    expect(badPatch.statusCode).toBe(400);
    for (const url of ['/Users/999999999', '/Users/abc', '/Nothing']) {
      const missing = await scim(token, 'GET', url);
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json()).toMatchObject({ schemas: [ERROR], status: '404' });
    }
    const invalidJson = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${token}`, 'content-type': SCIM_JSON },
      payload: '{"userName":',
    });
    expect(invalidJson.statusCode).toBe(400);
    expect(invalidJson.json()).toMatchObject({ schemas: [ERROR], status: '400' });
    for (const [payload, type] of [
      [`${'['.repeat(40)}${']'.repeat(40)}`, SCIM_JSON],
      [`${'['.repeat(40)}${']'.repeat(40)}`, 'application/json'],
      ['userName=x', 'text/plain'],
    ] as const) {
      const refused = await t.app.inject({
        method: 'POST',
        url: '/scim/v2/Users',
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
        payload,
      });
      expect(refused.statusCode, type).toBe(type === 'text/plain' ? 415 : 400);
      expect(refused.json()).toMatchObject({ schemas: [ERROR] });
    }
    // Plain JSON is read too.
    const plain = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ userName: `J${tag()}` }),
    });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.headers['content-type']).toContain(SCIM_JSON);

    // The discovery documents.
    const config = await scim(token, 'GET', '/ServiceProviderConfig');
    expect(config.json()).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
    });
    const schemas = await scim(token, 'GET', '/Schemas');
    expect(schemas.json().Resources[0]).toMatchObject({ id: USER });
    const types = await scim(token, 'GET', '/ResourceTypes');
    expect(types.json().Resources[0]).toMatchObject({
      id: 'User',
      endpoint: '/Users',
      schema: USER,
    });

    // The log of the company's requests: the newest 50, newest first, with their outcome.
    for (let i = 0; i < 30; i += 1) await scim(token, 'GET', '/Users?count=1');
    await scim(token, 'GET', '/Users/999999999');
    await scim(token, 'GET', '/ResourceTypes');
    const log = await as(companyAdmin).get(`/api/v1/companies/${company.id}/scim-requests`);
    expect(log.statusCode).toBe(200);
    const requests = log.json().data as { method: string; path: string; status: number }[];
    expect(requests).toHaveLength(50);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: '/scim/v2/ResourceTypes',
      status: 200,
    });
    expect(requests[1]).toMatchObject({
      method: 'GET',
      path: '/scim/v2/Users/999999999',
      status: 404,
    });
    expect(requests[2]).toMatchObject({ path: '/scim/v2/Users?count=1', status: 200 });
  });
});
