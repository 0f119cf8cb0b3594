// Issue 39 problems 2 and 3 (decision 0069): four eyes are two people. Each bypass the issue found
// is replayed through the HTTP API and refused; every path that links two accounts is recorded;
// split requests are held like one; a renamed payee is shown to the approver and confirmed.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Approval, Employee, ManagedUser } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs, signIn, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { newCompany, newEmployee } from '../../../test/ledger';
import { signedIn, STRONG_PASSWORD, uniqueName } from '../../../test/management';
import { queryRows } from '../../db/client';

const DAY = 86_400_000;
const TOPUP = '/api/v1/tokens/topup-token';
const DISTRIBUTE = '/api/v1/tokens/topup-token/employees';
const POLICY = '/api/v1/sys/approval-policy';
const approveUrl = (id: number) => `/api/v1/approvals/${id}/approve`;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe.each(await testDatabaseKinds())('four eyes are two people on %s', (kind) => {
  let t: TestApp;
  /** The super admin of the issue, and its Group HR, made straight in the database (no links). */
  let root: { id: number; username: string; password: string };
  let hrUser: { id: number; username: string; password: string };

  const as = (session: TestSession, method: Method, url: string, body?: object) =>
    injectAs(t.app, session, { method, url, ...(body ? { payload: body } : {}) });
  /** A fresh session: sessions end after 30 idle minutes, and some tests move the clock by days. */
  const session = (user: { username: string; password: string }) =>
    signIn(t.app, user.username, user.password);
  const setPolicy = async (
    top_up_threshold: number | null,
    distribution_threshold: number | null,
  ) => {
    const res = await as(await session(root), 'PUT', POLICY, {
      top_up_threshold,
      distribution_threshold,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const linksOf = (targetUserId: number) =>
    queryRows<{ actor: number; kind: string }>(
      t.db.database.db,
      sql`SELECT actor_user_id::int AS actor, kind FROM user_links
           WHERE target_user_id = ${targetUserId} ORDER BY id`,
    );
  const balanceOf = async (companyId: number) =>
    (
      await queryRows<{ b: number }>(
        t.db.database.db,
        sql`SELECT token_balance::int AS b FROM companies WHERE id = ${companyId}`,
      )
    )[0]!.b;
  const walletOf = async (employeeId: number) =>
    (
      await queryRows<{ b: number }>(
        t.db.database.db,
        sql`SELECT available_tokens::int AS b FROM employees WHERE id = ${employeeId}`,
      )
    )[0]!.b;
  const held = (res: { statusCode: number; body: string; json: () => unknown }) => {
    expect(res.statusCode, res.body).toBe(202);
    return (res.json() as { data: { approval: Approval } }).data.approval;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    const admin = await signedIn(t, 'admin');
    root = admin.user;
    hrUser = (await signedIn(t, 'super_hr')).user;
  });
  afterEach(async () => {
    await assertLedgerInvariants(t.app.deps.database.db);
  });
  afterAll(() => t.close());

  it('refuses Group HR approving, as itself, what the company admin it just created asked (403 APPROVAL_SELF)', async () => {
    const company = await newCompany(t.app.deps, { initToken: 50_000 });
    const [a, b] = [
      await newEmployee(t.app.deps, company.id),
      await newEmployee(t.app.deps, company.id),
    ];
    await setPolicy(null, 10_000);
    const hr = await session(hrUser);
    // Group HR creates a company admin with a password it chose...
    const name = uniqueName('ca');
    const created = await as(hr, 'POST', '/api/v1/companies/admin', {
      ...name,
      company_id: company.id,
      password: STRONG_PASSWORD,
      confirm_password: STRONG_PASSWORD,
      status: 'active',
    });
    expect(created.statusCode, created.body).toBe(201);
    const puppet = (created.json() as { data: ManagedUser }).data;
    // ... signs in as it and asks for a 20,000 distribution. The only other decider is Group HR
    // itself, linked: nobody else could decide, so it is refused as the spec's
    // APPROVAL_NOT_CONFIGURED, writing nothing.
    const asPuppet = await signIn(t.app, name.username, STRONG_PASSWORD);
    const items = [
      { employee_id: a.id, amount: 12_000 },
      { employee_id: b.id, amount: 8_000 },
    ];
    const refused = await as(asPuppet, 'POST', DISTRIBUTE, { items });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('APPROVAL_NOT_CONFIGURED');

    // With a second Group HR about, the request is held...
    const otherHr = await signedIn(t, 'super_hr');
    const approval = held(await as(asPuppet, 'POST', DISTRIBUTE, { items }));
    // ... and Group HR approving it as itself is refused, with the link as the reason.
    const listed = (await as(hr, 'GET', '/api/v1/approvals?status=pending')).json()
      .data as Approval[];
    expect(listed.find((x) => x.id === approval.id)?.can_decide).toBe(false);
    const toDecide = await as(hr, 'GET', '/api/v1/approvals?status=pending&to_decide=true');
    expect((toDecide.json().data as Approval[]).map((x) => x.id)).not.toContain(approval.id);
    const self = await as(hr, 'POST', approveUrl(approval.id));
    expect(self.statusCode).toBe(403);
    expect(self.json()).toMatchObject({
      code: 'APPROVAL_SELF',
      details: {
        reason: 'linked',
        link: { kind: 'created', actor_user_id: hrUser.id, target_user_id: puppet.user_id },
      },
    });
    expect(
      (await as(hr, 'POST', `/api/v1/approvals/${approval.id}/reject`, { reason: 'x' })).statusCode,
    ).toBe(403);
    expect(await walletOf(a.id)).toBe(0);
    expect(await balanceOf(company.id)).toBe(50_000);
    // The unlinked Group HR is the second person.
    const ok = await as(otherHr.session, 'POST', approveUrl(approval.id));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await walletOf(a.id)).toBe(12_000);
    await setPolicy(null, null);
  });

  it('refuses the super admin approving a 60,000 top-up asked by the admin it created with a chosen password', async () => {
    const company = await newCompany(t.app.deps);
    await setPolicy(50_000, null);
    const asRoot = await session(root);
    const name = uniqueName('adm');
    const created = await as(asRoot, 'POST', '/api/v1/users', {
      ...name,
      password: STRONG_PASSWORD,
      confirm_password: STRONG_PASSWORD,
      type: 'admin',
      status: 'active',
    });
    expect(created.statusCode, created.body).toBe(201);
    const puppetId = (created.json() as { data: ManagedUser }).data.user_id;
    const asPuppet = await signIn(t.app, name.username, STRONG_PASSWORD);
    // The super admin is the only other admin, and linked: nobody else could decide.
    const none = await as(asPuppet, 'POST', TOPUP, { company_id: company.id, amount: 60_000 });
    expect(none.statusCode, none.body).toBe(409);
    expect(none.json().code).toBe('APPROVAL_NOT_CONFIGURED');
    const third = await signedIn(t, 'admin');
    const approval = held(
      await as(asPuppet, 'POST', TOPUP, { company_id: company.id, amount: 60_000 }),
    );
    const self = await as(asRoot, 'POST', approveUrl(approval.id));
    expect(self.statusCode).toBe(403);
    expect(self.json()).toMatchObject({
      code: 'APPROVAL_SELF',
      details: {
        reason: 'linked',
        link: { kind: 'created', actor_user_id: root.id, target_user_id: puppetId },
      },
    });
    expect(await balanceOf(company.id)).toBe(0);

    // The other way round too: what the super admin asks, the admin it created may not decide.
    const mine = held(await as(asRoot, 'POST', TOPUP, { company_id: company.id, amount: 55_000 }));
    const reverse = await as(asPuppet, 'POST', approveUrl(mine.id));
    expect(reverse.statusCode).toBe(403);
    expect(reverse.json().details).toMatchObject({
      reason: 'linked',
      link: { actor_user_id: root.id },
    });
    // Its own request answers the plain reason.
    expect((await as(asRoot, 'POST', approveUrl(mine.id))).json().details).toEqual({
      reason: 'same_user',
    });

    // The unlinked admin decides both.
    expect((await as(third.session, 'POST', approveUrl(approval.id))).statusCode).toBe(200);
    expect((await as(third.session, 'POST', approveUrl(mine.id))).statusCode).toBe(200);
    expect(await balanceOf(company.id)).toBe(115_000);

    // Thirty days later the link no longer counts.
    t.clock.advance(30 * DAY + 1);
    const later = held(
      await as(await signIn(t.app, name.username, STRONG_PASSWORD), 'POST', TOPUP, {
        company_id: company.id,
        amount: 60_000,
      }),
    );
    expect((await as(await session(root), 'POST', approveUrl(later.id))).statusCode).toBe(200);
    await setPolicy(null, null);
  });

  it('records a link on every path that creates an account or sets another’s password or second factor', async () => {
    const asRoot = await session(root);
    const hr = await session(hrUser);
    const company = await newCompany(t.app.deps);
    const body = (extra: object = {}) => ({ ...uniqueName('ln'), status: 'active', ...extra });
    const withPassword = { password: STRONG_PASSWORD, confirm_password: STRONG_PASSWORD };
    const idOf = (res: { statusCode: number; body: string; json: () => unknown }) => {
      expect(res.statusCode, res.body).toBe(201);
      const data = (res.json() as { data: { user_id?: number; user?: { user_id: number } } }).data;
      return data.user_id ?? data.user!.user_id;
    };

    // POST /users (the admin's), POST /companies/admin (Group HR's), with a password.
    const viaUsers = idOf(
      await as(asRoot, 'POST', '/api/v1/users', body({ ...withPassword, type: 'admin' })),
    );
    expect(await linksOf(viaUsers)).toEqual([{ actor: root.id, kind: 'created' }]);
    const viaCompanyAdmins = idOf(
      await as(
        hr,
        'POST',
        '/api/v1/companies/admin',
        body({ ...withPassword, company_id: company.id }),
      ),
    );
    expect(await linksOf(viaCompanyAdmins)).toEqual([{ actor: hrUser.id, kind: 'created' }]);

    // Invitations, and a new link for them.
    const invitedUser = idOf(
      await as(asRoot, 'POST', '/api/v1/users/invitations', body({ type: 'super_hr' })),
    );
    expect(await linksOf(invitedUser)).toEqual([
      { actor: root.id, kind: 'created' },
      { actor: root.id, kind: 'invited' },
    ]);
    const invitedAdmin = idOf(
      await as(hr, 'POST', '/api/v1/companies/admin/invitations', body({ company_id: company.id })),
    );
    expect((await linksOf(invitedAdmin)).map((l) => l.kind)).toEqual(['created', 'invited']);
    const otherHr = await signedIn(t, 'super_hr');
    idOf(await as(otherHr.session, 'POST', `/api/v1/companies/admin/${invitedAdmin}/invitations`));
    expect((await linksOf(invitedAdmin)).at(-1)).toEqual({
      actor: otherHr.user.id,
      kind: 'invited',
    });
    idOf(await as(asRoot, 'POST', `/api/v1/users/${invitedUser}/invitations`));
    expect((await linksOf(invitedUser)).at(-1)).toEqual({ actor: root.id, kind: 'invited' });

    // POST /employees/{id}/account (a company admin gives its employee a sign-in).
    const companyAdmin = await signedIn(t, 'company_admin', { companyId: company.id });
    const employee = await newEmployee(t.app.deps, company.id);
    const account = await as(
      companyAdmin.session,
      'POST',
      `/api/v1/employees/${employee.id}/account`,
      {
        username: uniqueName('emp').username,
        password: STRONG_PASSWORD,
      },
    );
    expect(account.statusCode, account.body).toBe(201);
    expect(await linksOf((account.json() as { data: { user_id: number } }).data.user_id)).toEqual([
      { actor: companyAdmin.user.id, kind: 'created' },
    ]);

    // Passwords set by another: PUT /users/{id} and PUT /companies/admin/{id}; without a
    // password the edit links nobody.
    const target = await signedIn(t, 'admin');
    const edit = (extra: object = {}) => ({
      username: target.user.username,
      email: `${target.user.username}@test.example`,
      status: 'active',
      ...extra,
    });
    expect((await as(asRoot, 'PUT', `/api/v1/users/${target.user.id}`, edit())).statusCode).toBe(
      200,
    );
    expect(await linksOf(target.user.id)).toEqual([]);
    const reset = await as(asRoot, 'PUT', `/api/v1/users/${target.user.id}`, edit(withPassword));
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await linksOf(target.user.id)).toEqual([{ actor: root.id, kind: 'password_set' }]);
    const ca = companyAdmin.user;
    const caReset = await as(hr, 'PUT', `/api/v1/companies/admin/${ca.id}`, {
      username: ca.username,
      email: `${ca.username}@test.example`,
      status: 'active',
      ...withPassword,
    });
    expect(caReset.statusCode, caReset.body).toBe(200);
    expect(await linksOf(ca.id)).toEqual([{ actor: hrUser.id, kind: 'password_set' }]);

    // The second factor removed by another: DELETE /users/{id}/mfa.
    const mfaTarget = await signedIn(t, 'admin');
    const mfa = await as(asRoot, 'DELETE', `/api/v1/users/${mfaTarget.user.id}/mfa`);
    expect(mfa.statusCode, mfa.body).toBe(200);
    expect(await linksOf(mfaTarget.user.id)).toEqual([{ actor: root.id, kind: 'mfa_reset' }]);

    // And a link refuses the decision whichever kind it is: the password reset here.
    await setPolicy(1_000, null);
    const company2 = await newCompany(t.app.deps);
    const asTarget = await signIn(t.app, target.user.username, STRONG_PASSWORD);
    const approval = held(
      await as(asTarget, 'POST', TOPUP, { company_id: company2.id, amount: 1_000 }),
    );
    const refused = await as(await session(root), 'POST', approveUrl(approval.id));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().details).toMatchObject({
      reason: 'linked',
      link: { kind: 'password_set' },
    });
    await setPolicy(null, null);
  });

  it('holds split distributions: 10 of 9,999 against 10,000 — the 2nd waits, and every one after', async () => {
    const company = await newCompany(t.app.deps, { initToken: 200_000 });
    const staff: Employee[] = [];
    for (let i = 0; i < 10; i += 1) staff.push(await newEmployee(t.app.deps, company.id));
    const requester = await signedIn(t, 'company_admin', { companyId: company.id });
    const decider = await signedIn(t, 'company_admin', { companyId: company.id });
    await setPolicy(null, 10_000);
    const statuses: number[] = [];
    const approvals: Approval[] = [];
    for (const employee of staff) {
      const res = await as(requester.session, 'POST', DISTRIBUTE, {
        items: [{ employee_id: employee.id, amount: 9_999 }],
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 202) approvals.push(held(res));
    }
    expect(statuses).toEqual([200, ...Array(9).fill(202)]);
    expect(await balanceOf(company.id)).toBe(200_000 - 9_999);

    // What the decider applies through approvals does not count as its own unapproved work.
    const ok = await as(decider.session, 'POST', approveUrl(approvals[0]!.id));
    expect(ok.statusCode, ok.body).toBe(200);
    const own = await as(decider.session, 'POST', DISTRIBUTE, {
      items: [{ employee_id: staff[0]!.id, amount: 9_999 }],
    });
    expect(own.statusCode, own.body).toBe(200);

    // Another company's distributions are another count; a day later the window has passed.
    t.clock.advance(DAY + 1);
    const again = await as(await session(requester.user), 'POST', DISTRIBUTE, {
      items: [{ employee_id: staff[1]!.id, amount: 9_999 }],
    });
    expect(again.statusCode, again.body).toBe(200);
    await setPolicy(null, null);
  });

  it('holds split top-ups the same way: 30,000 then 30,000 against 50,000', async () => {
    const company = await newCompany(t.app.deps);
    const other = await newCompany(t.app.deps);
    const requester = await signedIn(t, 'admin');
    await setPolicy(50_000, null);
    expect(
      (await as(requester.session, 'POST', TOPUP, { company_id: company.id, amount: 30_000 }))
        .statusCode,
    ).toBe(200);
    // Another company: its own count.
    expect(
      (await as(requester.session, 'POST', TOPUP, { company_id: other.id, amount: 30_000 }))
        .statusCode,
    ).toBe(200);
    const second = held(
      await as(requester.session, 'POST', TOPUP, { company_id: company.id, amount: 30_000 }),
    );
    expect(second.total).toBe(30_000);
    expect(await balanceOf(company.id)).toBe(30_000);
    await setPolicy(null, null);
  });

  it('shows the approver a payee renumbered and renamed since the request, and applies only once it is confirmed', async () => {
    const company = await newCompany(t.app.deps, { initToken: 20_000 });
    const chloe = await newEmployee(t.app.deps, company.id, { staffNumber: 'E0007' });
    const requester = await signedIn(t, 'company_admin', { companyId: company.id });
    const approver = await signedIn(t, 'company_admin', { companyId: company.id });
    const named = await as(requester.session, 'PUT', `/api/v1/employees/${chloe.id}`, {
      name: 'Chloe Zhao',
    });
    expect(named.statusCode, named.body).toBe(200);
    await setPolicy(null, 10_000);
    const approval = held(
      await as(requester.session, 'POST', DISTRIBUTE, {
        items: [{ employee_id: chloe.id, amount: 10_000 }],
      }),
    );
    expect(approval.payload.items).toEqual([
      { employee_id: chloe.id, staff_number: 'E0007', name: 'Chloe Zhao', amount: 10_000 },
    ]);
    expect(approval.payee_changes).toEqual([]);

    // The requester renumbers and renames the employee afterwards.
    const renamed = await as(requester.session, 'PUT', `/api/v1/employees/${chloe.id}`, {
      employee_id: 'E0099',
      name: 'Mallory Moss',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);

    const change = {
      employee_id: chloe.id,
      staff_number_then: 'E0007',
      name_then: 'Chloe Zhao',
      staff_number: 'E0099',
      name: 'Mallory Moss',
      changed: ['staff_number', 'name'],
    };
    const [seen] = (await as(approver.session, 'GET', '/api/v1/approvals?status=pending')).json()
      .data as Approval[];
    expect(seen).toMatchObject({ id: approval.id, can_decide: true, payee_changes: [change] });

    // Approving without confirming the change (or confirming what it was) applies nothing.
    const blind = await as(approver.session, 'POST', approveUrl(approval.id));
    expect(blind.statusCode).toBe(409);
    expect(blind.json()).toMatchObject({
      code: 'APPROVAL_PAYEE_CHANGED',
      details: { changes: [change] },
    });
    const stale = await as(approver.session, 'POST', approveUrl(approval.id), {
      confirm_payees: [{ employee_id: chloe.id, staff_number: 'E0007', name: 'Chloe Zhao' }],
    });
    expect(stale.statusCode).toBe(409);
    expect(await walletOf(chloe.id)).toBe(0);
    expect(await balanceOf(company.id)).toBe(20_000);

    const confirmed = await as(approver.session, 'POST', approveUrl(approval.id), {
      confirm_payees: [{ employee_id: chloe.id, staff_number: 'E0099', name: 'Mallory Moss' }],
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data).toMatchObject({ status: 'approved', payee_changes: [change] });
    // The wallet the request was bound to (the employee's id) received it.
    expect(await walletOf(chloe.id)).toBe(10_000);
    const [audit] = await queryRows<{ after: Record<string, unknown> }>(
      t.db.database.db,
      sql`SELECT after FROM audit_log WHERE action = 'approve' AND entity_id = ${String(approval.id)}`,
    );
    expect(audit!.after.payee_changes_confirmed).toEqual([change]);
    await setPolicy(null, null);
  });
});

// Real concurrency needs PostgreSQL (PGlite runs one statement at a time).
const postgres = (await testDatabaseKinds()).filter((k) => k === 'postgres');

describe.each(postgres)('split requests sent at once on %s', (kind) => {
  let t: TestApp;
  afterAll(() => t.close());

  it('holds one of two parts sent at the same moment: they take turns on the company', async () => {
    t = await createTestApp(kind);
    const company = await newCompany(t.app.deps, { initToken: 100_000 });
    const staff = [];
    for (let i = 0; i < 6; i += 1) staff.push(await newEmployee(t.app.deps, company.id));
    const admin = await signedIn(t, 'admin');
    const requester = await signedIn(t, 'company_admin', { companyId: company.id });
    await signedIn(t, 'company_admin', { companyId: company.id });
    const policy = await injectAs(t.app, admin.session, {
      method: 'PUT',
      url: POLICY,
      payload: { top_up_threshold: null, distribution_threshold: 10_000 },
    });
    expect(policy.statusCode).toBe(200);
    const answers = await Promise.all(
      staff.map((employee) =>
        injectAs(t.app, requester.session, {
          method: 'POST',
          url: DISTRIBUTE,
          payload: { items: [{ employee_id: employee.id, amount: 9_999 }] },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 202, 202, 202, 202, 202]);
    const [row] = await queryRows<{ b: number }>(
      t.db.database.db,
      sql`SELECT token_balance::int AS b FROM companies WHERE id = ${company.id}`,
    );
    expect(row!.b).toBe(100_000 - 9_999);
    await assertLedgerInvariants(t.app.deps.database.db);
  });
});
