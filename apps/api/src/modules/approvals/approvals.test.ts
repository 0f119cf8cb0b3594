import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Approval, Company, Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { newCompany, newEmployee } from '../../../test/ledger';
import { auditRowsOf, signedIn } from '../../../test/management';
import { queryRows } from '../../db/client';
import { runApprovalExpiry } from '../jobs';

const DAY = 86_400_000;
const TOPUP = '/api/v1/tokens/topup-token';
const DISTRIBUTE = '/api/v1/tokens/topup-token/employees';
const POLICY = '/api/v1/sys/approval-policy';

describe.each(await testDatabaseKinds())('four-eyes approvals on %s', (kind) => {
  let t: TestApp;
  let admin: TestSession;
  let admin2: TestSession;
  let acme: Company;
  let globex: Company;
  let acmeAdmin: TestSession;
  let acmeAdmin2: TestSession;
  let globexAdmin: TestSession;
  let ada: Employee;
  let bob: Employee;

  const as = (session: TestSession, method: 'GET' | 'POST' | 'PUT', url: string, body?: object) =>
    injectAs(t.app, session, { method, url, ...(body ? { payload: body } : {}) });
  const balanceOf = async (companyId: number) =>
    (
      await queryRows<{ token_balance: number }>(
        t.db.database.db,
        sql`SELECT token_balance FROM companies WHERE id = ${companyId}`,
      )
    )[0]!.token_balance;
  const walletOf = async (employeeId: number) =>
    (
      await queryRows<{ available_tokens: number }>(
        t.db.database.db,
        sql`SELECT available_tokens FROM employees WHERE id = ${employeeId}`,
      )
    )[0]!.available_tokens;
  const approvalCount = async () =>
    (
      await queryRows<{ n: number }>(
        t.db.database.db,
        sql`SELECT count(*)::int AS n FROM approvals`,
      )
    )[0]!.n;
  const setPolicy = (top_up_threshold: number | null, distribution_threshold: number | null) =>
    as(admin, 'PUT', POLICY, { top_up_threshold, distribution_threshold });
  const pending = (res: { statusCode: number; json: () => { data: { approval: Approval } } }) => {
    expect(res.statusCode).toBe(202);
    return res.json().data.approval;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    const deps = t.app.deps;
    acme = await newCompany(deps, { initToken: 1000 });
    globex = await newCompany(deps, { initToken: 1000 });
    ada = await newEmployee(deps, acme.id);
    bob = await newEmployee(deps, acme.id);
    // At first one admin and one company admin per company, and no Group HR: nobody else.
    admin = (await signedIn(t, 'admin')).session;
    acmeAdmin = (await signedIn(t, 'company_admin', { companyId: acme.id })).session;
    globexAdmin = (await signedIn(t, 'company_admin', { companyId: globex.id })).session;
  });
  afterEach(async () => {
    await assertLedgerInvariants(t.app.deps.database.db);
  });
  afterAll(() => t.close());

  it('is off by default, and only the admin reads or sets the policy, audited', async () => {
    const initial = await as(admin, 'GET', POLICY);
    expect(initial.statusCode).toBe(200);
    expect(initial.json().data).toMatchObject({
      top_up_threshold: null,
      distribution_threshold: null,
    });
    // Off: a large top-up applies at once. (To globex: it counts for a day against the admin's
    // later top-ups of the same company, the splitting rule of decision 0069.)
    const res = await as(admin, 'POST', TOPUP, { company_id: globex.id, amount: 100_000 });
    expect(res.statusCode).toBe(200);
    expect(await balanceOf(globex.id)).toBe(101_000);

    expect((await as(acmeAdmin, 'GET', POLICY)).statusCode).toBe(403);
    expect(
      (
        await as(acmeAdmin, 'PUT', POLICY, {
          top_up_threshold: 1,
          distribution_threshold: 1,
        })
      ).statusCode,
    ).toBe(403);
    expect((await as(admin, 'PUT', POLICY, { top_up_threshold: 0 })).statusCode).toBe(400);

    const set = await setPolicy(500, 300);
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({ top_up_threshold: 500, distribution_threshold: 300 });
    const [row] = await queryRows<{ action: string; before: unknown; after: unknown }>(
      t.db.database.db,
      sql`SELECT action, before, after FROM audit_log WHERE entity_type = 'approval_policy'
          ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toMatchObject({
      action: 'update',
      before: { top_up_threshold: null, distribution_threshold: null },
      after: { top_up_threshold: 500, distribution_threshold: 300 },
    });
  });

  it('refuses a request nobody else could decide with 409 APPROVAL_NOT_CONFIGURED, writing nothing', async () => {
    const before = await balanceOf(acme.id);
    const topUp = await as(admin, 'POST', TOPUP, { company_id: acme.id, amount: 500 });
    expect(topUp.statusCode).toBe(409);
    expect(topUp.json().code).toBe('APPROVAL_NOT_CONFIGURED');
    const distribution = await as(acmeAdmin, 'POST', DISTRIBUTE, {
      items: [{ employee_id: ada.id, amount: 300 }],
    });
    expect(distribution.statusCode).toBe(409);
    expect(distribution.json().code).toBe('APPROVAL_NOT_CONFIGURED');
    expect(await balanceOf(acme.id)).toBe(before);
    expect(await approvalCount()).toBe(0);
    // An inactive second admin is nobody either.
    await createUser(t.db.database.db, { type: 'admin', status: 'inactive' });
    expect((await as(admin, 'POST', TOPUP, { company_id: acme.id, amount: 500 })).statusCode).toBe(
      409,
    );
  });

  it('applies below the threshold and holds a request equal to it, moving no token', async () => {
    admin2 = (await signedIn(t, 'admin')).session;
    acmeAdmin2 = (await signedIn(t, 'company_admin', { companyId: acme.id })).session;
    const start = await balanceOf(acme.id);

    const below = await as(admin, 'POST', TOPUP, { company_id: acme.id, amount: 499 });
    expect(below.statusCode).toBe(200);
    expect(await balanceOf(acme.id)).toBe(start + 499);

    const approval = pending(
      await as(admin, 'POST', TOPUP, { company_id: acme.id, amount: 500, note: 'Q2' }),
    );
    expect(approval).toMatchObject({
      kind: 'top_up',
      status: 'pending',
      total: 500,
      company_id: acme.id,
      payload: { company_id: acme.id, company_name: 'Test company', amount: 500, note: 'Q2' },
      decided_by: null,
      decided_at: null,
      reason: null,
      can_decide: false,
    });
    expect(await balanceOf(acme.id)).toBe(start + 499);

    const distBelow = await as(acmeAdmin, 'POST', DISTRIBUTE, {
      items: [
        { employee_id: ada.id, amount: 200 },
        { employee_id: bob.id, amount: 99 },
      ],
    });
    expect(distBelow.statusCode).toBe(200);
    const adaBefore = await walletOf(ada.id);
    const dist = pending(
      await as(acmeAdmin, 'POST', DISTRIBUTE, {
        items: [
          { employee_id: ada.id, amount: 200 },
          { employee_id: bob.id, amount: 100 },
        ],
      }),
    );
    expect(dist).toMatchObject({ kind: 'distribution', total: 300, company_id: acme.id });
    expect(dist.payload.items).toEqual([
      { employee_id: ada.id, staff_number: ada.employee_id, name: ada.name, amount: 200 },
      { employee_id: bob.id, staff_number: bob.employee_id, name: bob.name, amount: 100 },
    ]);
    expect(await walletOf(ada.id)).toBe(adaBefore);

    // Audited as a request on the approval.
    const rows = await auditRowsOf(t, 'approval', dist.id);
    expect(rows.map((r) => r.action)).toEqual(['request_approval']);
  });

  it('refuses the requester approving its own with 403 APPROVAL_SELF; another admin applies it once', async () => {
    const list = await as(admin, 'GET', '/api/v1/approvals?status=pending&kind=top_up');
    expect(list.statusCode).toBe(200);
    const approval = (list.json().data as Approval[])[0]!;
    expect(approval).toMatchObject({ kind: 'top_up', can_decide: false });
    const self = await as(admin, 'POST', `/api/v1/approvals/${approval.id}/approve`);
    expect(self.statusCode).toBe(403);
    expect(self.json().code).toBe('APPROVAL_SELF');
    expect(
      (await as(admin, 'POST', `/api/v1/approvals/${approval.id}/reject`, { reason: 'no' }))
        .statusCode,
    ).toBe(403);

    // The sidebar's count: what each may decide itself (not its own; the admin no distribution).
    const toDecide = '/api/v1/approvals?status=pending&to_decide=true';
    expect((await as(admin, 'GET', toDecide)).json().total).toBe(0);
    expect((await as(admin2, 'GET', toDecide)).json().data).toEqual([
      expect.objectContaining({ id: approval.id }),
    ]);
    expect((await as(acmeAdmin, 'GET', toDecide)).json().total).toBe(0);
    expect((await as(acmeAdmin2, 'GET', toDecide)).json().total).toBe(1);
    const seen = (await as(admin2, 'GET', '/api/v1/approvals?status=pending')).json()
      .data as Approval[];
    expect(seen.find((a) => a.id === approval.id)?.can_decide).toBe(true);
    const before = await balanceOf(acme.id);
    const ok = await as(admin2, 'POST', `/api/v1/approvals/${approval.id}/approve`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ status: 'approved', decided_by: expect.any(Number) });
    expect(ok.json().data.decided_at).not.toBeNull();
    expect(await balanceOf(acme.id)).toBe(before + 500);

    const again = await as(admin2, 'POST', `/api/v1/approvals/${approval.id}/approve`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('APPROVAL_NOT_PENDING');
    expect(await balanceOf(acme.id)).toBe(before + 500);
    const actions = (await auditRowsOf(t, 'approval', approval.id)).map((r) => r.action);
    expect(actions).toEqual(['request_approval', 'approve']);
    const [topup] = await queryRows<{ after: { approval_id: number } }>(
      t.db.database.db,
      sql`SELECT after FROM audit_log WHERE action = 'topup' ORDER BY id DESC LIMIT 1`,
    );
    expect(topup!.after.approval_id).toBe(approval.id);
  });

  it('keeps each company’s distributions to itself; Group HR decides any, the admin none', async () => {
    const [dist] = (await as(acmeAdmin2, 'GET', '/api/v1/approvals?status=pending')).json()
      .data as Approval[];
    expect(dist).toMatchObject({ kind: 'distribution', company_id: acme.id, can_decide: true });

    const globexList = await as(globexAdmin, 'GET', '/api/v1/approvals');
    expect(globexList.json()).toEqual({ data: [], total: 0 });
    expect(
      (await as(globexAdmin, 'POST', `/api/v1/approvals/${dist!.id}/approve`)).statusCode,
    ).toBe(404);
    const adminView = (await as(admin, 'GET', '/api/v1/approvals?status=pending')).json()
      .data as Approval[];
    expect(adminView.find((a) => a.id === dist!.id)?.can_decide).toBe(false);
    const byAdmin = await as(admin, 'POST', `/api/v1/approvals/${dist!.id}/approve`);
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().code).toBe('PERMISSION_DENIED');

    const hr = (await signedIn(t, 'super_hr')).session;
    const hrView = (await as(hr, 'GET', '/api/v1/approvals')).json().data as Approval[];
    expect(hrView.every((a) => a.kind === 'distribution')).toBe(true);
    expect(hrView.find((a) => a.id === dist!.id)?.can_decide).toBe(true);

    const adaBefore = await walletOf(ada.id);
    const ok = await as(acmeAdmin2, 'POST', `/api/v1/approvals/${dist!.id}/approve`);
    expect(ok.statusCode).toBe(200);
    expect(await walletOf(ada.id)).toBe(adaBefore + 200);
    // The distribution's own audit row names the approval it applies, as the top-up's does.
    const [applied] = await queryRows<{ actor: number; after: Record<string, unknown> }>(
      t.db.database.db,
      sql`SELECT actor_user_id::int AS actor, after FROM audit_log
           WHERE action = 'distribute' AND entity_id = ${String(acme.id)} ORDER BY id DESC LIMIT 1`,
    );
    expect(applied!.after).toMatchObject({
      approval_id: dist!.id,
      total: dist!.total,
      people: dist!.payload.items!.length,
      items: dist!.payload.items!.map(({ employee_id, amount }) => ({ employee_id, amount })),
    });
    expect(applied!.actor).toBe(ok.json().data.decided_by);

    // With Group HR about, even globex's only company admin has someone else to decide.
    const globexEmployee = await newEmployee(t.app.deps, globex.id);
    const req = pending(
      await as(globexAdmin, 'POST', DISTRIBUTE, {
        items: [{ employee_id: globexEmployee.id, amount: 300 }],
      }),
    );
    const rejected = await as(hr, 'POST', `/api/v1/approvals/${req.id}/reject`, {
      reason: 'Not this month',
    });
    expect(rejected.statusCode).toBe(200);
    expect(await walletOf(globexEmployee.id)).toBe(0);
  });

  it('answers the usual balance error when the balance no longer covers it, and stays pending', async () => {
    const balance = await balanceOf(acme.id);
    const dist = pending(
      await as(acmeAdmin, 'POST', DISTRIBUTE, {
        items: [{ employee_id: bob.id, amount: balance }],
      }),
    );
    // Meanwhile, a small distribution (below the threshold) spends some of it: by the other
    // company admin, whose own applications of the day are below it (the requester's are not).
    expect(
      (
        await as(acmeAdmin2, 'POST', DISTRIBUTE, {
          items: [{ employee_id: ada.id, amount: 10 }],
        })
      ).statusCode,
    ).toBe(200);
    const refused = await as(acmeAdmin2, 'POST', `/api/v1/approvals/${dist.id}/approve`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('TOTAL_EXCEEDS_AVAILABLE');
    const [still] = (await as(acmeAdmin2, 'GET', '/api/v1/approvals?status=pending')).json()
      .data as Approval[];
    expect(still).toMatchObject({ id: dist.id, status: 'pending' });
    expect((await auditRowsOf(t, 'approval', dist.id)).map((r) => r.action)).toEqual([
      'request_approval',
    ]);
    // Topped up again (below the top-up threshold, by the admin that applied nothing else to acme
    // today but the request it approved), the same approval now applies.
    expect((await as(admin2, 'POST', TOPUP, { company_id: acme.id, amount: 10 })).statusCode).toBe(
      200,
    );
    expect((await as(acmeAdmin2, 'POST', `/api/v1/approvals/${dist.id}/approve`)).statusCode).toBe(
      200,
    );
  });

  it('rejects with a reason (required), applying nothing', async () => {
    const req = pending(await as(admin, 'POST', TOPUP, { company_id: globex.id, amount: 800 }));
    const before = await balanceOf(globex.id);
    const noReason = await as(admin2, 'POST', `/api/v1/approvals/${req.id}/reject`, {
      reason: '  ',
    });
    expect(noReason.statusCode).toBe(400);
    const res = await as(admin2, 'POST', `/api/v1/approvals/${req.id}/reject`, {
      reason: 'Wrong company',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'rejected', reason: 'Wrong company' });
    expect(await balanceOf(globex.id)).toBe(before);
    expect((await as(admin2, 'POST', `/api/v1/approvals/${req.id}/approve`)).json().code).toBe(
      'APPROVAL_NOT_PENDING',
    );
    const rows = await auditRowsOf(t, 'approval', req.id);
    expect(rows.map((r) => r.action)).toEqual(['request_approval', 'reject']);
    expect(rows[1]!.after).toMatchObject({ status: 'rejected', reason: 'Wrong company' });

    const decided = (
      await as(admin, 'GET', '/api/v1/approvals?status=approved,rejected,expired')
    ).json().data as Approval[];
    expect(decided.map((a) => a.status)).toContain('rejected');
    expect(decided.every((a) => a.status !== 'pending')).toBe(true);
  });

  it('places approval audit rows in their company for the audit screen', async () => {
    const acmeRows = (
      await as(acmeAdmin, 'GET', '/api/v1/audit-log?entity_type=approval&page_size=50')
    ).json().data as { entity_id: string }[];
    const globexRows = (
      await as(globexAdmin, 'GET', '/api/v1/audit-log?entity_type=approval&page_size=50')
    ).json().data as { entity_id: string }[];
    const companyOf = new Map(
      (
        await queryRows<{ id: number; company_id: number }>(
          t.db.database.db,
          sql`SELECT id::int AS id, company_id::int AS company_id FROM approvals`,
        )
      ).map((a) => [String(a.id), a.company_id]),
    );
    expect(acmeRows.length).toBeGreaterThan(0);
    expect(globexRows.length).toBeGreaterThan(0);
    expect(acmeRows.every((r) => companyOf.get(r.entity_id) === acme.id)).toBe(true);
    expect(globexRows.every((r) => companyOf.get(r.entity_id) === globex.id)).toBe(true);
  });
  it('expires a pending request after 7 days by the jobs timer’s sweep, by the injectable clock', async () => {
    const req = pending(await as(admin, 'POST', TOPUP, { company_id: acme.id, amount: 600 }));
    t.clock.advance(7 * DAY - 1);
    expect(await runApprovalExpiry(t.app.deps)).toEqual([]);
    t.clock.advance(1);
    // Sessions idle for a week have ended: sign in again.
    const admin3 = (await signedIn(t, 'admin')).session;
    // Due but not yet swept: no longer approvable.
    expect((await as(admin3, 'POST', `/api/v1/approvals/${req.id}/approve`)).json().code).toBe(
      'APPROVAL_NOT_PENDING',
    );
    expect(await runApprovalExpiry(t.app.deps)).toContain(req.id);
    expect(await runApprovalExpiry(t.app.deps)).toEqual([]);
    const rows = await auditRowsOf(t, 'approval', req.id);
    expect(rows.map((r) => [r.action, r.actor_user_id])).toEqual([
      ['request_approval', expect.any(Number)],
      ['expire', null],
    ]);
    const [expired] = (await as(admin3, 'GET', '/api/v1/approvals?status=expired')).json()
      .data as Approval[];
    expect(expired).toMatchObject({ id: req.id, status: 'expired' });
  });
});

// Real concurrency needs PostgreSQL (PGlite runs one statement at a time).
const postgres = (await testDatabaseKinds()).filter((k) => k === 'postgres');

describe.each(postgres)('approvals under concurrency on %s', (kind) => {
  let t: TestApp;
  afterAll(() => t.close());

  it('applies a request exactly once when five people approve it at the same moment', async () => {
    t = await createTestApp(kind);
    const company = await newCompany(t.app.deps, { initToken: 0 });
    const requester = (await signedIn(t, 'admin')).session;
    const approvers = await Promise.all(
      Array.from({ length: 5 }, async () => (await signedIn(t, 'admin')).session),
    );
    await injectAs(t.app, requester, {
      method: 'PUT',
      url: POLICY,
      payload: { top_up_threshold: 100, distribution_threshold: null },
    });
    const res = await injectAs(t.app, requester, {
      method: 'POST',
      url: TOPUP,
      payload: { company_id: company.id, amount: 700 },
    });
    expect(res.statusCode).toBe(202);
    const { id } = res.json().data.approval as Approval;

    const answers = await Promise.all(
      approvers.map((session) =>
        injectAs(t.app, session, { method: 'POST', url: `/api/v1/approvals/${id}/approve` }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409]);
    expect(answers.filter((a) => a.statusCode === 409).map((a) => a.json().code as string)).toEqual(
      Array(4).fill('APPROVAL_NOT_PENDING'),
    );
    const issued = await queryRows<{ amount: number }>(
      t.db.database.db,
      sql`SELECT amount FROM token_transactions
           WHERE company_id = ${company.id} AND event = 'company_issued'`,
    );
    expect(issued).toEqual([{ amount: 700 }]);
    const [row] = await queryRows<{ token_balance: number }>(
      t.db.database.db,
      sql`SELECT token_balance FROM companies WHERE id = ${company.id}`,
    );
    expect(row?.token_balance).toBe(700);
    expect(
      (await auditRowsOf(t, 'approval', id)).filter((r) => r.action === 'approve'),
    ).toHaveLength(1);
    await assertLedgerInvariants(t.app.deps.database.db);
  });
});
