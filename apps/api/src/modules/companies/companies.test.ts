// Companies management (issue 4): list search and paging, PUT with immutable code, reset-day
// semantics, every spec-5 rule with its field message, duplicate codes and the audit trail.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES, type ValidationMessageKey } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { auditRowsOf, signedIn } from '../../../test/management';

const msg = (key: ValidationMessageKey) => VALIDATION_MESSAGES[key].en;

const validCompany = {
  code: 'BASE1',
  name: 'Base',
  status: 'active',
  monthly_reset_day: 1,
  init_token: 100,
};
const validUpdate = { name: 'Renamed', status: 'active', monthly_reset_day: 1, init_token: 100 };

/** [what, field, bad value (undefined = left out), expected message] for create and update. */
const RULES: [string, string, unknown, ValidationMessageKey][] = [
  ['name missing', 'name', undefined, 'v.name_required'],
  ['name blank', 'name', '   ', 'v.name_required'],
  ['reset day 0', 'monthly_reset_day', 0, 'v.reset_day_range'],
  ['reset day 32', 'monthly_reset_day', 32, 'v.reset_day_range'],
  ['reset day missing', 'monthly_reset_day', undefined, 'v.reset_day_required'],
  ['reset day fractional', 'monthly_reset_day', 1.5, 'v.integer'],
  ['reset day a string', 'monthly_reset_day', 'x', 'v.number_invalid'],
  ['init token -1', 'init_token', -1, 'v.initial_token_min'],
  ['init token fractional', 'init_token', 0.5, 'v.integer'],
  // Past 2^53 - 1 an amount is too large, with its own code (issue 14).
  ['init token beyond 2^53', 'init_token', 2 ** 53, 'v.amount_too_large'],
  ['init token missing', 'init_token', undefined, 'v.amount_required'],
  ['unknown field', 'colour', 'red', 'v.unknown_field'],
  ['balance is not writable', 'token_balance', 5, 'v.unknown_field'],
];
const CREATE_ONLY_RULES: [string, string, unknown, ValidationMessageKey][] = [
  ['code too short', 'code', 'AB', 'v.code_length'],
  ['code too long', 'code', 'ABCDEFGHIJKLM', 'v.code_length'],
  ['code with a dash', 'code', 'AB-12', 'v.code_chars'],
  ['code with a space', 'code', 'AB 12', 'v.code_chars'],
  ['code with non-ASCII letters', 'code', 'ÄBC', 'v.code_chars'],
  ['code missing', 'code', undefined, 'v.code_required'],
  ['status not a status', 'status', 'paused', 'v.status_required'],
];
const UPDATE_ONLY_RULES: [string, string, unknown, ValidationMessageKey][] = [
  ['code is immutable', 'code', 'NEWCODE', 'v.unknown_field'],
  ['status missing', 'status', undefined, 'v.status_required'],
  ['next month init token -1', 'init_token_next_month', -1, 'v.initial_token_min'],
];

const withField = (base: object, field: string, value: unknown) => {
  const body: Record<string, unknown> = { ...base };
  if (value === undefined) delete body[field];
  else body[field] = value;
  return body;
};

describe.each(await testDatabaseKinds())('companies management on %s', (kind) => {
  let t: TestApp;
  let admin: TestSession;
  let hr: TestSession;
  let hrUserId: number;
  const as = (
    session: TestSession,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => injectAs(t.app, session, { method, url, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedIn(t, 'admin')).session;
    const signedInHr = await signedIn(t, 'super_hr');
    hr = signedInHr.session;
    hrUserId = signedInHr.user.id;
  });
  afterEach(async () => {
    await assertLedgerInvariants(t.db.database.db);
  });
  afterAll(() => t.close());

  const create = async (body: object) => {
    const res = await as(admin, 'POST', '/api/v1/companies', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; code: string };
  };

  /** BODY_INVALID naming the field, or AMOUNT_TOO_LARGE for an amount past 2^53 - 1. */
  const expectRefused = (
    res: { statusCode: number; json: () => unknown },
    field: string,
    key: ValidationMessageKey,
  ) => {
    const code = key === 'v.amount_too_large' ? 'AMOUNT_TOO_LARGE' : 'BODY_INVALID';
    expect(res.statusCode).toBe(code === 'AMOUNT_TOO_LARGE' ? 422 : 400);
    expect(res.json()).toMatchObject({ code, metadata: { [field]: msg(key) } });
  };

  describe('spec 5 rules on POST /companies', () => {
    it.each([...RULES, ...CREATE_ONLY_RULES])('%s', async (_what, field, value, key) => {
      const res = await as(
        admin,
        'POST',
        '/api/v1/companies',
        withField(validCompany, field, value),
      );
      expectRefused(res, field, key);
    });
  });

  describe('spec 5 rules on PUT /companies/{id}', () => {
    let id: number;
    beforeAll(async () => {
      id = (await create({ ...validCompany, code: 'RULES1' })).id;
    });
    it.each([...RULES, ...UPDATE_ONLY_RULES])('%s', async (_what, field, value, key) => {
      const res = await as(
        admin,
        'PUT',
        `/api/v1/companies/${id}`,
        withField(validUpdate, field, value),
      );
      expectRefused(res, field, key);
      expect((await as(admin, 'GET', `/api/v1/companies/${id}`)).json().data.code).toBe('RULES1');
    });
    it('accepts the boundaries: reset day 1 and 31, init token 0 and 2^53 - 1', async () => {
      for (const body of [
        { ...validUpdate, monthly_reset_day: 31, init_token: 0 },
        { ...validUpdate, monthly_reset_day: 1, init_token: Number.MAX_SAFE_INTEGER },
      ]) {
        expect((await as(admin, 'PUT', `/api/v1/companies/${id}`, body)).statusCode).toBe(200);
      }
    });
  });

  it('refuses a duplicate company code in any case, with 409 COMPANY_CODE_ALREADY_EXISTS', async () => {
    await create({ ...validCompany, code: 'DupCo' });
    for (const code of ['DUPCO', 'dupco', 'DupCo']) {
      const res = await as(hr, 'POST', '/api/v1/companies', { ...validCompany, code });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'COMPANY_CODE_ALREADY_EXISTS' });
    }
  });

  it('answers 409 to the loser of two concurrent creates of one code', async () => {
    const [one, two] = await Promise.all([
      as(admin, 'POST', '/api/v1/companies', { ...validCompany, code: 'RaceCo' }),
      as(hr, 'POST', '/api/v1/companies', { ...validCompany, code: 'RACECO' }),
    ]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([201, 409]);
    expect([one, two].find((r) => r.statusCode === 409)!.json()).toMatchObject({
      code: 'COMPANY_CODE_ALREADY_EXISTS',
    });
  });

  it('updates a company: name, status, plan; balance shown, code kept, audit-logged', async () => {
    const { id } = await create({ ...validCompany, code: 'UPD1', init_token: 500 });
    const res = await as(hr, 'PUT', `/api/v1/companies/${id}`, {
      name: '  Updated Co  ',
      status: 'inactive',
      monthly_reset_day: 1,
      init_token: 700,
      init_token_next_month: 900,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id,
      code: 'UPD1',
      name: 'Updated Co',
      status: 'inactive',
      monthly_reset_day: 1,
      init_token: 700,
      init_token_next_month: 900,
      token_balance: 500,
      token_month: '2026-01',
      next_reset_at: '2026-02-01T00:00:00.000Z',
    });
    const audit = await auditRowsOf(t, 'company', id);
    expect(audit.map((r) => r.action)).toEqual(['create', 'update']);
    expect(audit[1]).toMatchObject({
      actor_user_id: hrUserId,
      before: { name: 'Base', status: 'active', init_token: 500, init_token_next_month: null },
      after: {
        name: 'Updated Co',
        status: 'inactive',
        init_token: 700,
        init_token_next_month: 900,
      },
    });
    // init_token_next_month may be cleared with null and is kept when left out.
    const cleared = await as(hr, 'PUT', `/api/v1/companies/${id}`, {
      ...validUpdate,
      init_token_next_month: null,
    });
    expect(cleared.json().data.init_token_next_month).toBeNull();
    expect((await as(admin, 'PUT', '/api/v1/companies/999999', validUpdate)).statusCode).toBe(404);
  });

  it('moves next_reset_at on a reset-day change without resetting on the spot', async () => {
    // The clock is 15 January 2026, 08:00 UTC; reset day 1 means the month runs to 1 February.
    const { id } = await create({ ...validCompany, code: 'RESET1', init_token: 300 });
    const put = (day: number) =>
      as(admin, 'PUT', `/api/v1/companies/${id}`, { ...validUpdate, monthly_reset_day: day });
    // Day 10 has passed in January: the current month ends on 10 February, not now.
    expect((await put(10)).json().data).toMatchObject({
      monthly_reset_day: 10,
      next_reset_at: '2026-02-10T00:00:00.000Z',
      token_month: '2026-01',
      token_balance: 300,
    });
    // Day 31 is clamped to February's last day.
    expect((await put(31)).json().data.next_reset_at).toBe('2026-02-28T00:00:00.000Z');
    // Sending the same day again leaves the schedule alone.
    expect((await put(31)).json().data.next_reset_at).toBe('2026-02-28T00:00:00.000Z');
    const rows = await auditRowsOf(t, 'company', id);
    expect(rows.at(-1)?.after).toMatchObject({ monthly_reset_day: 31 });
  });

  it('lists with search on code or name, status filter and paging', async () => {
    await create({ ...validCompany, code: 'SRCH1', name: 'Alpha Foods' });
    await create({ ...validCompany, code: 'SRCH2', name: 'Beta 100% Fresh', status: 'inactive' });
    await create({ ...validCompany, code: 'ZZZ9', name: 'Gamma srch' });
    const list = async (query: string) =>
      (await as(admin, 'GET', `/api/v1/companies?${query}`)).json() as {
        data: { code: string }[];
        total: number;
      };
    expect((await list('search=srch')).total).toBe(3);
    expect((await list('search=alpha')).data.map((c) => c.code)).toEqual(['SRCH1']);
    expect((await list('search=100%25')).data.map((c) => c.code)).toEqual(['SRCH2']);
    expect((await list('search=_')).total).toBe(0);
    expect((await list('search=srch&status=inactive')).data.map((c) => c.code)).toEqual(['SRCH2']);
    const page2 = await list('search=srch&page=2&page_size=10');
    expect(page2).toEqual({ data: [], total: 3 });
    const bad = await as(admin, 'GET', '/api/v1/companies?page_size=7');
    expect(bad.statusCode).toBe(400);
  });

  it('audit-logs a status change and a top-up to a company', async () => {
    const { id } = await create({ ...validCompany, code: 'AUD1', init_token: 10 });
    await as(admin, 'PATCH', `/api/v1/companies/${id}/status`, { status: 'inactive' });
    await as(admin, 'PATCH', `/api/v1/companies/${id}/status`, { status: 'active' });
    const topup = await as(admin, 'POST', '/api/v1/tokens/topup-token', {
      company_id: id,
      amount: 25,
      note: 'bonus',
    });
    expect(topup.statusCode).toBe(200);
    const config = await as(hr, 'PUT', '/api/v1/tokens/configuration', {
      company_id: id,
      init_token: 40,
    });
    expect(config.statusCode).toBe(200);
    const rows = await auditRowsOf(t, 'company', id);
    expect(rows.map((r) => r.action)).toEqual([
      'create',
      'status_change',
      'status_change',
      'topup',
      'update_configuration',
    ]);
    expect(rows[1]).toMatchObject({ before: { status: 'active' }, after: { status: 'inactive' } });
    expect(rows[3]).toMatchObject({
      before: { token_balance: 10 },
      after: { amount: 25, token_balance: 35, note: 'bonus' },
    });
    expect(rows[4]).toMatchObject({
      actor_user_id: hrUserId,
      before: { init_token: 10 },
      after: { init_token: 40 },
    });
    // A refused top-up writes nothing.
    await as(admin, 'POST', '/api/v1/tokens/topup-token', { company_id: id, amount: 0 });
    expect(await auditRowsOf(t, 'company', id)).toHaveLength(5);
  });
});
