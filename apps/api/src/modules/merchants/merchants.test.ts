// Merchants and terminals management (issue 4): PUT with immutable codes, soft DELETE that the
// terminal API honours, list search and paging, spec-5 rules, duplicate codes and the audit trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES, type ValidationMessageKey } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { auditRowsOf, signedIn } from '../../../test/management';

const msg = (key: ValidationMessageKey) => VALIDATION_MESSAGES[key].en;

type Rule = [string, string, unknown, ValidationMessageKey];
const CODE_RULES: Rule[] = [
  ['code too short', 'code', 'AB', 'v.code_length'],
  ['code too long', 'code', 'ABCDEFGHIJKLM', 'v.code_length'],
  ['code with a dash', 'code', 'AB-12', 'v.code_chars'],
  ['code with an underscore', 'code', 'AB_12', 'v.code_chars'],
  ['code missing', 'code', undefined, 'v.code_required'],
];
const NAME_RULES: Rule[] = [
  ['name missing', 'name', undefined, 'v.name_required'],
  ['name blank', 'name', ' ', 'v.name_required'],
  ['unknown field', 'colour', 'red', 'v.unknown_field'],
];
const UPDATE_RULES: Rule[] = [
  ...NAME_RULES,
  ['status missing', 'status', undefined, 'v.status_required'],
  ['status not a status', 'status', 'closed', 'v.status_required'],
  ['code is immutable', 'code', 'OTHER1', 'v.unknown_field'],
];

const withField = (base: object, field: string, value: unknown) => {
  const body: Record<string, unknown> = { ...base };
  if (value === undefined) delete body[field];
  else body[field] = value;
  return body;
};

describe.each(await testDatabaseKinds())('merchants and terminals management on %s', (kind) => {
  let t: TestApp;
  let admin: TestSession;
  let adminId: number;
  const as = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    injectAs(t.app, admin, { method, url, ...(payload ? { payload } : {}) });

  const newMerchant = async (code: string, name = 'Shop') => {
    const res = await as('POST', '/api/v1/merchants', { code, name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; code: string };
  };
  const newTerminal = async (merchantId: number, code: string, name = 'Till') => {
    const res = await as('POST', '/api/v1/terminals', { merchant_id: merchantId, code, name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; code: string; api_key: string };
  };
  /** What the terminal API answers to a key: refused with a code, or let past authentication. */
  const terminalCall = async (key: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/orders',
      headers: { authorization: `Bearer ${key}` },
      payload: {},
    });
    return res.json().code as string;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    const signed = await signedIn(t, 'admin');
    admin = signed.session;
    adminId = signed.user.id;
  });
  afterAll(() => t.close());

  describe('spec 5 rules', () => {
    let merchantId: number;
    let terminalId: number;
    beforeAll(async () => {
      merchantId = (await newMerchant('RULEM')).id;
      terminalId = (await newTerminal(merchantId, 'RULET')).id;
    });

    it.each([...CODE_RULES, ...NAME_RULES])(
      'POST /merchants: %s',
      async (_w, field, value, key) => {
        const res = await as(
          'POST',
          '/api/v1/merchants',
          withField({ code: 'GOODM1', name: 'Shop' }, field, value),
        );
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'BODY_INVALID', metadata: { [field]: msg(key) } });
      },
    );

    it.each(UPDATE_RULES)('PUT /merchants/{id}: %s', async (_w, field, value, key) => {
      const res = await as(
        'PUT',
        `/api/v1/merchants/${merchantId}`,
        withField({ name: 'Shop', status: 'active' }, field, value),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BODY_INVALID', metadata: { [field]: msg(key) } });
    });

    it.each<Rule>([
      ...CODE_RULES,
      ...NAME_RULES,
      ['merchant missing', 'merchant_id', undefined, 'v.merchant_required'],
    ])('POST /terminals: %s', async (_w, field, value, key) => {
      const res = await as(
        'POST',
        '/api/v1/terminals',
        withField({ merchant_id: merchantId, code: 'GOODT1', name: 'Till' }, field, value),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BODY_INVALID', metadata: { [field]: msg(key) } });
    });

    it.each<Rule>([
      ...UPDATE_RULES,
      ['merchant is immutable', 'merchant_id', 1, 'v.unknown_field'],
    ])('PUT /terminals/{id}: %s', async (_w, field, value, key) => {
      const res = await as(
        'PUT',
        `/api/v1/terminals/${terminalId}`,
        withField({ name: 'Till', status: 'active' }, field, value),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'BODY_INVALID',
        metadata: { [field]: msg(key) },
      });
    });
  });

  it('refuses duplicate codes: merchant in any case, terminal per merchant in any case', async () => {
    const m = await newMerchant('DupShop');
    for (const code of ['DUPSHOP', 'dupshop']) {
      const res = await as('POST', '/api/v1/merchants', { code, name: 'x' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'MERCHANT_CODE_ALREADY_EXISTS' });
    }
    await newTerminal(m.id, 'Till01');
    const dup = await as('POST', '/api/v1/terminals', {
      merchant_id: m.id,
      code: 'TILL01',
      name: 'x',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'TERMINAL_CODE_ALREADY_EXISTS' });
    // The same terminal code under another merchant is allowed.
    const other = await newMerchant('DupShop2');
    await newTerminal(other.id, 'till01');
  });

  it('answers 409 to the loser of two concurrent creates of one code', async () => {
    const [one, two] = await Promise.all([
      as('POST', '/api/v1/merchants', { code: 'RaceM', name: 'x' }),
      as('POST', '/api/v1/merchants', { code: 'racem', name: 'y' }),
    ]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([201, 409]);
    const merchantId = [one, two].find((r) => r.statusCode === 201)!.json().data.id as number;
    const terminals = await Promise.all(
      ['RaceT', 'RACET'].map((code) =>
        as('POST', '/api/v1/terminals', { merchant_id: merchantId, code, name: 'x' }),
      ),
    );
    expect(terminals.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(terminals.find((r) => r.statusCode === 409)!.json()).toMatchObject({
      code: 'TERMINAL_CODE_ALREADY_EXISTS',
    });
  });

  it('updates a merchant and a terminal (codes kept), audit-logged', async () => {
    const m = await newMerchant('UPDM', 'Old shop');
    const res = await as('PUT', `/api/v1/merchants/${m.id}`, {
      name: 'New shop',
      status: 'inactive',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: m.id,
      code: 'UPDM',
      name: 'New shop',
      status: 'inactive',
    });
    const rows = await auditRowsOf(t, 'merchant', m.id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'update']);
    expect(rows[1]).toMatchObject({
      actor_user_id: adminId,
      before: { name: 'Old shop', status: 'active' },
      after: { name: 'New shop', status: 'inactive' },
    });
    await as('PUT', `/api/v1/merchants/${m.id}`, { name: 'New shop', status: 'active' });

    const till = await newTerminal(m.id, 'UPDT', 'Old till');
    const put = await as('PUT', `/api/v1/terminals/${till.id}`, {
      name: 'New till',
      status: 'inactive',
    });
    expect(put.json().data).toMatchObject({
      code: 'UPDT',
      name: 'New till',
      status: 'inactive',
      merchant_id: m.id,
    });
    expect(await terminalCall(till.api_key)).toBe('TERMINAL_INACTIVE');
    await as('PATCH', `/api/v1/terminals/${till.id}/status`, { status: 'active' });
    expect(await terminalCall(till.api_key)).toBe('BODY_INVALID');
    const trows = await auditRowsOf(t, 'terminal', till.id);
    expect(trows.map((r) => r.action)).toEqual(['create', 'update', 'status_change']);
    expect(trows[1]).toMatchObject({ before: { name: 'Old till' }, after: { name: 'New till' } });
    expect(
      (await as('PUT', '/api/v1/merchants/999999', { name: 'x', status: 'active' })).statusCode,
    ).toBe(404);
    expect(
      (await as('PUT', '/api/v1/terminals/999999', { name: 'x', status: 'active' })).statusCode,
    ).toBe(404);
  });

  it('keeps a category on every merchant (DESIGN 7): other by default, set, kept when absent, filtered', async () => {
    const plain = await newMerchant('CATA');
    expect(plain).toMatchObject({ category: 'other' });
    const created = await as('POST', '/api/v1/merchants', {
      code: 'CATB',
      name: 'Canteen',
      category: 'canteen',
    });
    expect(created.json().data).toMatchObject({ category: 'canteen' });
    const id = created.json().data.id;
    // An update without a category keeps it; with one, changes it.
    await as('PUT', `/api/v1/merchants/${id}`, { name: 'Canteen 2', status: 'active' });
    expect((await as('GET', `/api/v1/merchants/${id}`)).json().data.category).toBe('canteen');
    const moved = await as('PUT', `/api/v1/merchants/${id}`, {
      name: 'Cafe',
      status: 'active',
      category: 'cafe',
    });
    expect(moved.json().data.category).toBe('cafe');
    expect((await auditRowsOf(t, 'merchant', id)).at(-1)).toMatchObject({
      before: { category: 'canteen' },
      after: { category: 'cafe' },
    });
    const cafes = await as('GET', '/api/v1/merchants?category=cafe');
    expect(cafes.json().data.map((m: { id: number }) => m.id)).toEqual([id]);
    const bad = await as('POST', '/api/v1/merchants', { code: 'CATC', name: 'X', category: 'bar' });
    expect(bad.statusCode).toBe(400);
  });

  it('audit-logs a key rotation without the key', async () => {
    const m = await newMerchant('ROTM');
    const till = await newTerminal(m.id, 'ROTT');
    const rotated = await as('POST', `/api/v1/terminals/${till.id}/rotate-key`);
    const newKey = rotated.json().data.api_key as string;
    expect(await terminalCall(till.api_key)).toBe('UNAUTHORIZED');
    const rows = await auditRowsOf(t, 'terminal', till.id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'rotate_key']);
    const logged = JSON.stringify(rows);
    expect(logged).not.toContain(newKey);
    expect(logged).not.toContain(till.api_key);
    expect(logged).not.toContain(newKey.slice(0, 10));
    expect(rows[1]!.after).not.toHaveProperty('api_key');
  });

  it('deletes a terminal softly: hidden, 404 afterwards, its key refused', async () => {
    const m = await newMerchant('DELTM');
    const keep = await newTerminal(m.id, 'KEEP');
    const gone = await newTerminal(m.id, 'GONE');
    const del = await as('DELETE', `/api/v1/terminals/${gone.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ data: { ok: true } });
    expect((await as('GET', `/api/v1/terminals/${gone.id}`)).statusCode).toBe(404);
    for (const [method, url, body] of [
      ['PUT', `/api/v1/terminals/${gone.id}`, { name: 'x', status: 'active' }],
      ['PATCH', `/api/v1/terminals/${gone.id}/status`, { status: 'active' }],
      ['POST', `/api/v1/terminals/${gone.id}/rotate-key`, undefined],
      ['DELETE', `/api/v1/terminals/${gone.id}`, undefined],
    ] as const) {
      expect((await as(method, url, body)).statusCode).toBe(404);
    }
    const list = (await as('GET', `/api/v1/terminals?merchant_id=${m.id}`)).json();
    expect(list).toMatchObject({ total: 1, data: [{ id: keep.id }] });
    expect(await terminalCall(gone.api_key)).toBe('TERMINAL_INACTIVE');
    expect(await terminalCall(keep.api_key)).toBe('BODY_INVALID');
    // Its code stays taken: codes are never reused.
    const again = await as('POST', '/api/v1/terminals', {
      merchant_id: m.id,
      code: 'GONE',
      name: 'x',
    });
    expect(again.json()).toMatchObject({ code: 'TERMINAL_CODE_ALREADY_EXISTS' });
    const rows = await auditRowsOf(t, 'terminal', gone.id);
    expect(rows.at(-1)).toMatchObject({ action: 'delete', before: { code: 'GONE' }, after: null });
  });

  it('deletes a merchant softly: it and its terminals are hidden and refused', async () => {
    const m = await newMerchant('DELM');
    const till = await newTerminal(m.id, 'DELMT');
    expect((await as('DELETE', `/api/v1/merchants/${m.id}`)).statusCode).toBe(200);
    expect((await as('GET', `/api/v1/merchants/${m.id}`)).statusCode).toBe(404);
    expect((await as('GET', `/api/v1/terminals/${till.id}`)).statusCode).toBe(404);
    expect(
      (await as('PATCH', `/api/v1/merchants/${m.id}/status`, { status: 'active' })).statusCode,
    ).toBe(404);
    expect(
      (await as('PUT', `/api/v1/merchants/${m.id}`, { name: 'x', status: 'active' })).statusCode,
    ).toBe(404);
    expect((await as('DELETE', `/api/v1/merchants/${m.id}`)).statusCode).toBe(404);
    const list = (await as('GET', '/api/v1/merchants?search=DELM&page_size=50')).json();
    expect(list).toEqual({ data: [], total: 0 });
    expect((await as('GET', `/api/v1/terminals?merchant_id=${m.id}`)).json().total).toBe(0);
    const refused = await terminalCall(till.api_key);
    expect(['MERCHANT_INACTIVE', 'TERMINAL_INACTIVE']).toContain(refused);
    const create = await as('POST', '/api/v1/terminals', {
      merchant_id: m.id,
      code: 'NEWT',
      name: 'x',
    });
    expect(create.statusCode).toBe(404);
    const dup = await as('POST', '/api/v1/merchants', { code: 'delm', name: 'Again' });
    expect(dup.json()).toMatchObject({ code: 'MERCHANT_CODE_ALREADY_EXISTS' });
    expect((await auditRowsOf(t, 'merchant', m.id)).map((r) => r.action)).toEqual([
      'create',
      'delete',
    ]);
  });

  it('lists merchants and terminals with search, status and paging', async () => {
    const a = await newMerchant('LSTA', 'Noodle Bar');
    const b = await newMerchant('LSTB', 'Noodle House');
    await as('PATCH', `/api/v1/merchants/${b.id}/status`, { status: 'inactive' });
    const list = async (url: string) =>
      (await as('GET', url)).json() as { data: { code: string }[]; total: number };
    expect((await list('/api/v1/merchants?search=noodle')).total).toBe(2);
    expect((await list('/api/v1/merchants?search=lstb')).data.map((m) => m.code)).toEqual(['LSTB']);
    expect(
      (await list('/api/v1/merchants?search=noodle&status=active')).data.map((m) => m.code),
    ).toEqual(['LSTA']);
    expect(await list('/api/v1/merchants?search=noodle&page=2')).toEqual({ data: [], total: 2 });

    for (let i = 1; i <= 12; i += 1) await newTerminal(a.id, `LT${i}`, `Counter ${i}`);
    await newTerminal(b.id, 'LT1', 'Counter 1');
    const page1 = await list(`/api/v1/terminals?merchant_id=${a.id}&page_size=10`);
    expect(page1.total).toBe(12);
    expect(page1.data).toHaveLength(10);
    expect((await list(`/api/v1/terminals?merchant_id=${a.id}&page=2`)).data).toHaveLength(2);
    expect((await list('/api/v1/terminals?search=LT1&page_size=50')).total).toBe(5);
    expect((await list(`/api/v1/terminals?merchant_id=${a.id}&search=counter 1`)).total).toBe(4);
    expect((await list(`/api/v1/terminals?merchant_id=${b.id}&status=inactive`)).total).toBe(0);
  });
});
