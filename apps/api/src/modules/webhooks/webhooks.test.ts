// Webhook endpoints (DESIGN 6 "Integrations", decision 0038): the API of each scope, the target
// checks, the audit, the secret shown once and never logged, and the outbox: an event exists if
// and only if its change committed.
import { Writable } from 'node:stream';
import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs, requestsAs } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { codeOf, newEmployee, newTerminal, order, type TestTerminal } from '../../../test/ledger';
import { auditRowsOf, newCompany, signedIn, type SignedInUser } from '../../../test/management';
import { countEvents, eventsOfOrder } from '../../../test/webhook-receiver';
import { inTransaction } from '../../lib/transaction';
import { distributeTokens, placeOrders, type OrderRequest } from '../ledger';
import { distributeToEmployees, issueToCompany } from '../tokens';
import type { Resolver } from './webhook-targets';
import { checkWebhookTarget } from './webhook-targets';

/** Names the tests use, resolved without DNS; every lookup is recorded. */
const lookups: string[] = [];
const resolve: Resolver = async (hostname) => {
  lookups.push(hostname);
  const table: Record<string, string> = {
    'intranet.example.test': '10.1.2.3',
    'metadata.example.test': '169.254.169.254',
    'mixed.example.test': '93.184.216.34',
    'hooks.example.test': '93.184.216.34',
    'xn--bcher-kva.example.test': '93.184.216.34',
    localhost: '127.0.0.1',
  };
  const address = table[hostname];
  if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return hostname === 'mixed.example.test'
    ? [
        { address, family: 4 },
        { address: '192.168.1.5', family: 4 },
      ]
    : [{ address, family: 4 }];
};

/** The rules of a production server: no http, no loopback, the default ports. */
const strict = { allowHttp: false, allowedPorts: [443, 8443], resolve };

describe.each(await testDatabaseKinds())('webhooks on %s', (kind) => {
  let t: TestApp;
  const logLines: string[] = [];
  let acme: Company;
  let other: Company;
  let admin: SignedInUser;
  let acmeAdmin: SignedInUser;
  let otherAdmin: SignedInUser;
  let merchantAdmin: SignedInUser;
  let terminal: TestTerminal;

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp(
      kind,
      { WEBHOOKS_ALLOW_HTTP: 'true' },
      { resolve, logger: { stream, level: 'trace' } },
    );
    acme = await newCompany(t);
    other = await newCompany(t);
    admin = await signedIn(t, 'admin');
    acmeAdmin = await signedIn(t, 'company_admin', { companyId: acme.id });
    otherAdmin = await signedIn(t, 'company_admin', { companyId: other.id });
    terminal = await newTerminal(t.app.deps);
    merchantAdmin = await signedIn(t, 'merchant_admin', { merchantId: terminal.merchantId });
    await issueToCompany(t.app.deps, null, { company_id: acme.id, amount: 10_000 });
  });
  afterAll(() => t.close());

  const as = (who: SignedInUser) => requestsAs(t.app, who.session);

  describe('endpoints', () => {
    it('creates an endpoint with a whsec_ secret shown once, then lists, reads, changes, rotates and deletes it, all audited', async () => {
      const created = await as(acmeAdmin).post('/api/v1/webhooks', {
        url: 'https://hooks.example.test/acme',
        events: ['order.created', 'tokens.distributed'],
        description: 'HR system',
      });
      expect(created.statusCode).toBe(201);
      const endpoint = created.json().data;
      expect(endpoint).toMatchObject({
        url: 'https://hooks.example.test/acme',
        events: ['order.created', 'tokens.distributed'],
        status: 'active',
        scope: 'company',
        company_id: acme.id,
        merchant_id: null,
        description: 'HR system',
      });
      expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

      const list = await as(acmeAdmin).get('/api/v1/webhooks');
      expect(list.statusCode).toBe(200);
      expect(list.json().data.map((w: { id: number }) => w.id)).toContain(endpoint.id);
      const one = await as(acmeAdmin).get(`/api/v1/webhooks/${endpoint.id}`);
      expect(one.statusCode).toBe(200);
      expect(one.json().data).not.toHaveProperty('secret');
      expect(JSON.stringify(list.json())).not.toContain(endpoint.secret);

      const disabled = await as(acmeAdmin).patch(`/api/v1/webhooks/${endpoint.id}`, {
        status: 'disabled',
      });
      expect(disabled.json().data).toMatchObject({ status: 'disabled', disabled_reason: 'manual' });
      const changed = await as(acmeAdmin).patch(`/api/v1/webhooks/${endpoint.id}`, {
        status: 'active',
        events: ['order.refunded'],
        description: null,
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().data).toMatchObject({
        status: 'active',
        disabled_reason: null,
        events: ['order.refunded'],
        description: null,
      });

      const rotated = await injectAs(t.app, acmeAdmin.session, {
        method: 'POST',
        url: `/api/v1/webhooks/${endpoint.id}/rotate-secret`,
      });
      expect(rotated.statusCode).toBe(200);
      expect(rotated.json().data.secret).toMatch(/^whsec_/);
      expect(rotated.json().data.secret).not.toBe(endpoint.secret);

      const deleted = await as(acmeAdmin).delete(`/api/v1/webhooks/${endpoint.id}`);
      expect(deleted.statusCode).toBe(200);
      expect((await as(acmeAdmin).get(`/api/v1/webhooks/${endpoint.id}`)).statusCode).toBe(404);

      const audit = await auditRowsOf(t, 'webhook_endpoint', endpoint.id);
      expect(audit.map((row) => row.action)).toEqual([
        'create',
        'status_change',
        'update',
        'rotate_secret',
        'delete',
      ]);
      const auditText = JSON.stringify(audit);
      expect(auditText).not.toContain(endpoint.secret);
      expect(auditText).not.toContain(rotated.json().data.secret);
      // The company admin's audit screen shows its endpoints' rows.
      const screen = await as(acmeAdmin).get(
        `/api/v1/audit-log?entity_type=webhook_endpoint&entity_id=${endpoint.id}`,
      );
      expect(screen.json().data).toHaveLength(5);

      // Logged at trace level, the secrets still appear in no log line.
      const logs = logLines.join('');
      expect(logs).toContain('/api/v1/webhooks');
      expect(logs).not.toContain(endpoint.secret);
      expect(logs).not.toContain(rotated.json().data.secret);
    });

    it('offers each role only the events of its scope', async () => {
      const refused = await as(merchantAdmin).post('/api/v1/webhooks', {
        url: 'https://hooks.example.test/shop',
        events: ['order.created', 'tokens.issued'],
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('WEBHOOK_EVENT_NOT_ALLOWED');
      const shop = await as(merchantAdmin).post('/api/v1/webhooks', {
        url: 'https://hooks.example.test/shop',
        events: ['order.created', 'order.refunded'],
      });
      expect(shop.statusCode).toBe(201);
      expect(shop.json().data).toMatchObject({
        scope: 'merchant',
        merchant_id: terminal.merchantId,
        company_id: null,
      });
      const everything = await as(admin).post('/api/v1/webhooks', {
        url: 'https://hooks.example.test/all',
        events: ['order.created', 'order.refunded', 'tokens.issued', 'reset.completed'],
      });
      expect(everything.statusCode).toBe(201);
      expect(everything.json().data.scope).toBe('all');
      const supervisor = await signedIn(t, 'merchant_supervisor', {
        merchantId: terminal.merchantId,
      });
      expect((await as(supervisor).get('/api/v1/webhooks')).statusCode).toBe(403);
    });

    it('shows a scope only its own endpoints: another company’s is not found', async () => {
      const mine = (
        await as(otherAdmin).post('/api/v1/webhooks', {
          url: 'https://hooks.example.test/other',
          events: ['tokens.issued'],
        })
      ).json().data;
      expect((await as(acmeAdmin).get(`/api/v1/webhooks/${mine.id}`)).statusCode).toBe(404);
      expect((await as(merchantAdmin).get(`/api/v1/webhooks/${mine.id}`)).statusCode).toBe(404);
      expect(
        (
          await injectAs(t.app, acmeAdmin.session, {
            method: 'POST',
            url: `/api/v1/webhooks/${mine.id}/rotate-secret`,
          })
        ).statusCode,
      ).toBe(404);
      expect((await as(acmeAdmin).get(`/api/v1/webhooks/${mine.id}/deliveries`)).statusCode).toBe(
        404,
      );
      const listed = (await as(acmeAdmin).get('/api/v1/webhooks')).json().data;
      expect(listed.every((w: { company_id: number }) => w.company_id === acme.id)).toBe(true);
      expect((await as(admin).get(`/api/v1/webhooks/${mine.id}`)).statusCode).toBe(200);
    });
  });

  describe('targets', () => {
    it.each([
      ['http://10.0.0.1/', 'a private address'],
      ['http://169.254.169.254/', 'the link-local metadata address'],
      ['https://intranet.example.test/hook', 'a name resolving to a private address'],
      ['https://mixed.example.test/hook', 'a name with one private address among public ones'],
      ['http://hooks.example.test/hook', 'plain http to a public address'],
      ['https://[fd00::1]/hook', 'a private IPv6 address'],
      ['https://[::ffff:10.0.0.1]/hook', 'a private IPv4 address written as IPv6'],
      ['https://user:pw@hooks.example.test/hook', 'credentials in the address'],
      ['https://nowhere.example.test/hook', 'a name that does not resolve'],
    ])('refuses %s (%s) with 400 WEBHOOK_URL_NOT_ALLOWED', async (url) => {
      const res = await as(admin).post('/api/v1/webhooks', { url, events: ['order.created'] });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('WEBHOOK_URL_NOT_ALLOWED');
      const changed = await as(admin).post('/api/v1/webhooks', {
        url: 'https://hooks.example.test/fine',
        events: ['order.created'],
      });
      const patch = await as(admin).patch(`/api/v1/webhooks/${changed.json().data.id}`, { url });
      expect(patch.statusCode).toBe(400);
      expect(patch.json().code).toBe('WEBHOOK_URL_NOT_ALLOWED');
    });

    it('decides on the resolved addresses without contacting the target, and looks up only names', async () => {
      lookups.length = 0;
      await as(admin).post('/api/v1/webhooks', {
        url: 'http://10.0.0.1/',
        events: ['order.created'],
      });
      await as(admin).post('/api/v1/webhooks', {
        url: 'https://intranet.example.test/hook',
        events: ['order.created'],
      });
      expect(lookups).toEqual(['intranet.example.test']);
    });

    it('allows loopback only with WEBHOOKS_ALLOW_HTTP=true', async () => {
      const allowed = await as(admin).post('/api/v1/webhooks', {
        url: 'http://localhost:9/hook',
        events: ['order.created'],
      });
      expect(allowed.statusCode).toBe(201);
      await as(admin).delete(`/api/v1/webhooks/${allowed.json().data.id}`);
      for (const url of ['http://127.0.0.1:9/hook', 'https://127.0.0.1/hook', 'https://[::1]/']) {
        expect(await codeOf(checkWebhookTarget(url, strict))).toBe('WEBHOOK_URL_NOT_ALLOWED');
      }
      await expect(
        checkWebhookTarget('https://hooks.example.test/x', strict),
      ).resolves.toMatchObject({ address: '93.184.216.34', family: 4 });
    });
  });

  describe('targets: IPv6 forms, ports and the stored URL (decision 0071)', () => {
    /** Every IPv6 (and IPv4) form of a non-public address, with what it carries. */
    const NOT_PUBLIC: [string, string][] = [
      ['https://[::ffff:10.0.0.1]/', 'IPv4-mapped, private'],
      ['https://[::ffff:a00:1]/', 'IPv4-mapped in hex, private'],
      ['https://[::ffff:169.254.169.254]/', 'IPv4-mapped, link-local metadata'],
      ['https://[::ffff:100.64.0.1]/', 'IPv4-mapped, carrier-grade NAT'],
      ['https://[::ffff:0:10.0.0.1]/', 'IPv4-translated, private'],
      ['https://[::10.0.0.1]/', 'IPv4-compatible, private'],
      ['https://[::127.0.0.1]/', 'IPv4-compatible, loopback'],
      ['https://[::a9fe:a9fe]/', 'IPv4-compatible in hex, link-local'],
      ['https://[64:ff9b::10.0.0.1]/', 'NAT64, private'],
      ['https://[64:ff9b::7f00:1]/', 'NAT64, loopback'],
      ['https://[64:ff9b::169.254.169.254]/', 'NAT64, link-local'],
      ['https://[64:ff9b::c0a8:101]/', 'NAT64, private 192.168'],
      ['https://[64:ff9b:1::a00:1]/', 'local-use NAT64, private'],
      ['https://[64:ff9b:1:a00:1::]/', 'local-use NAT64, a /48 embedding'],
      ['https://[64:ff9b:1::808:808]/', 'local-use NAT64, even of a public address'],
      ['https://[2002:a00:1::1]/', '6to4, private'],
      ['https://[2002:7f00:1::]/', '6to4, loopback'],
      ['https://[2002:c0a8:101::1]/', '6to4, private 192.168'],
      ['https://[2002:a9fe:a9fe::1]/', '6to4, link-local'],
      ['https://[2002:6440:1::1]/', '6to4, carrier-grade NAT'],
      ['https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/', 'Teredo, private client 10.0.0.1'],
      ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'Teredo, loopback client'],
      ['https://[2001:0:a00:1::f7f7:f7f7]/', 'Teredo, private server'],
      ['https://[fd12:3456::1]/', 'unique local'],
      ['https://[fc00::1]/', 'unique local fc00::/8'],
      ['https://[fe80::1]/', 'link-local'],
      ['https://[fec0::1]/', 'site-local'],
      ['https://[::]/', 'unspecified'],
      ['https://[ff02::1]/', 'multicast'],
      ['https://[2001:db8::1]/', 'documentation'],
      ['https://[2001:2::1]/', 'benchmarking'],
      ['https://[100::1]/', 'discard'],
      ['https://[4000::1]/', 'outside global unicast'],
      ['https://0.0.0.1/', 'this network'],
      ['https://100.64.0.1/', 'carrier-grade NAT'],
      ['https://198.18.0.1/', 'benchmarking'],
      ['https://224.0.0.1/', 'multicast'],
      ['https://255.255.255.255/', 'broadcast'],
      ['https://0xa000001/', 'private, in hex'],
    ];

    it.each(NOT_PUBLIC)('refuses %s (%s) with 400 WEBHOOK_URL_NOT_ALLOWED', async (url) => {
      const res = await as(admin).post('/api/v1/webhooks', { url, events: ['order.created'] });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('WEBHOOK_URL_NOT_ALLOWED');
      expect(await codeOf(checkWebhookTarget(url, strict))).toBe('WEBHOOK_URL_NOT_ALLOWED');
    });

    it('refuses the loopback forms without WEBHOOKS_ALLOW_HTTP, the mapped one included', async () => {
      for (const url of [
        'https://[::ffff:127.0.0.1]/',
        'https://[::ffff:7f00:1]/',
        'https://[::1]/',
        'https://0x7f.1/',
        'https://2130706433/',
      ]) {
        expect(await codeOf(checkWebhookTarget(url, strict)), url).toBe('WEBHOOK_URL_NOT_ALLOWED');
      }
    });

    it('judges the IPv4 address an IPv6 form carries: a public one passes', async () => {
      for (const url of [
        'https://[::ffff:8.8.8.8]/',
        'https://[64:ff9b::8.8.8.8]/',
        'https://[2002:808:808::1]/',
        'https://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/',
        'https://[2606:4700:4700::1111]/',
        'https://8.8.8.8/',
      ]) {
        await expect(checkWebhookTarget(url, strict), url).resolves.toMatchObject({
          url: new URL(url),
        });
      }
    });

    it('allows ports 443 and 8443 only, unless configured; loopback with WEBHOOKS_ALLOW_HTTP on any', async () => {
      lookups.length = 0;
      for (const url of [
        'https://hooks.example.test:22/hook',
        'https://hooks.example.test:6379/hook',
        'https://hooks.example.test:80/hook',
        'https://[2606:4700:4700::1111]:25/',
      ]) {
        const res = await as(admin).post('/api/v1/webhooks', { url, events: ['order.created'] });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().code).toBe('WEBHOOK_URL_NOT_ALLOWED');
        expect(await codeOf(checkWebhookTarget(url, strict)), url).toBe('WEBHOOK_URL_NOT_ALLOWED');
      }
      // The app (WEBHOOKS_ALLOW_HTTP=true) looks each name up once, to see if it is loopback;
      // without it a refused port is refused before any lookup.
      expect(lookups).toEqual(Array(3).fill('hooks.example.test'));

      // Creating an endpoint contacts nobody: no socket is opened to the target.
      const connects: string[] = [];
      const connect = net.Socket.prototype.connect;
      net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
        connects.push(JSON.stringify(args[0]));
        return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
      } as typeof connect;
      try {
        for (const [url, stored] of [
          ['https://hooks.example.test:443/a', 'https://hooks.example.test/a'],
          ['https://hooks.example.test:8443/a', 'https://hooks.example.test:8443/a'],
          ['https://93.184.216.34:8443/b', 'https://93.184.216.34:8443/b'],
        ]) {
          const res = await as(admin).post('/api/v1/webhooks', { url, events: ['order.created'] });
          expect(res.statusCode, url).toBe(201);
          expect(res.json().data.url).toBe(stored);
          await as(admin).delete(`/api/v1/webhooks/${res.json().data.id}`);
        }
      } finally {
        net.Socket.prototype.connect = connect;
      }
      expect(connects.filter((c) => /93\.184\.216\.34|443/.test(c))).toEqual([]);

      // Configured ports replace the default ones.
      const custom = { ...strict, allowedPorts: [9443] };
      await expect(
        checkWebhookTarget('https://hooks.example.test:9443/', custom),
      ).resolves.toMatchObject({ address: '93.184.216.34' });
      expect(await codeOf(checkWebhookTarget('https://hooks.example.test/', custom))).toBe(
        'WEBHOOK_URL_NOT_ALLOWED',
      );
      // The tests' receiver: loopback http on a random port, with WEBHOOKS_ALLOW_HTTP=true.
      const receiver = await as(admin).post('/api/v1/webhooks', {
        url: 'http://127.0.0.1:49152/hook',
        events: ['order.created'],
      });
      expect(receiver.statusCode).toBe(201);
      await as(admin).delete(`/api/v1/webhooks/${receiver.json().data.id}`);
      expect(await codeOf(checkWebhookTarget('https://[::ffff:127.0.0.1]:6379/', strict))).toBe(
        'WEBHOOK_URL_NOT_ALLOWED',
      );
    });

    it('stores and answers the URL as the WHATWG parser normalises it, on create and on change', async () => {
      const created = await as(acmeAdmin).post('/api/v1/webhooks', {
        url: 'HTTPS://Hooks.EXAMPLE.test:443/a/./b/../c?x=1#top',
        events: ['order.created'],
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().data.id;
      expect(created.json().data.url).toBe('https://hooks.example.test/a/c?x=1#top');
      expect((await as(acmeAdmin).get(`/api/v1/webhooks/${id}`)).json().data.url).toBe(
        'https://hooks.example.test/a/c?x=1#top',
      );
      const punycode = await as(acmeAdmin).patch(`/api/v1/webhooks/${id}`, {
        url: 'https://BÜCHER.example.test/hook',
      });
      expect(punycode.statusCode, punycode.body).toBe(200);
      expect(punycode.json().data.url).toBe('https://xn--bcher-kva.example.test/hook');
      const ipv6 = await as(acmeAdmin).patch(`/api/v1/webhooks/${id}`, {
        url: 'https://[2606:4700:4700:0:0:0:0:1111]:8443/',
      });
      expect(ipv6.json().data.url).toBe('https://[2606:4700:4700::1111]:8443/');
      await as(acmeAdmin).delete(`/api/v1/webhooks/${id}`);
    });
  });

  describe('the outbox', () => {
    let staff: Employee;
    beforeAll(async () => {
      staff = await newEmployee(t.app.deps, acme.id);
      await distributeToEmployees(t.app.deps, { kind: 'company', companyId: acme.id }, null, {
        items: [{ employee_id: staff.id, amount: 100 }],
      });
    });

    it('writes no event for a refused order and exactly one for each committed order', async () => {
      const before = await countEvents(t.app.deps.database.db, 'order.created');
      expect(
        await codeOf(order(t.app.deps, terminal, acme, staff, 1_000)).catch(
          (error: Error) => error.message,
        ),
      ).toBe('INSUFFICIENT_TOKENS');
      expect(await countEvents(t.app.deps.database.db, 'order.created')).toBe(before);

      const placed = await order(t.app.deps, terminal, acme, staff, 10);
      // A retry with the same key is answered from the key: no second event.
      const key = crypto.randomUUID();
      const again = await order(t.app.deps, terminal, acme, staff, 5, key);
      await order(t.app.deps, terminal, acme, staff, 5, key);
      expect(await eventsOfOrder(t.app.deps.database.db, 'order.created', placed.id)).toBe(1);
      expect(await eventsOfOrder(t.app.deps.database.db, 'order.created', again.id)).toBe(1);

      // The group-commit batch (place_terminal_orders): one event per placed order, none for
      // the refused one in the same batch.
      const request = (tokens: number): OrderRequest => ({
        terminal: terminal.identity,
        idempotencyKey: crypto.randomUUID(),
        requestHash: `h-${tokens}-${crypto.randomUUID()}`,
        companyCode: acme.code,
        staffNumber: staff.employee_id,
        orderType: 'takeaway',
        items: [{ name: 'Rice', quantity: 1, unit_tokens: tokens }],
        at: t.clock.now(),
      });
      const results = await placeOrders(t.app.deps.database.db, [
        request(3),
        request(10_000),
        request(4),
      ]);
      const ids = results.map((r) =>
        r.ok ? (r.value.body as { data: { id: number } }).data.id : null,
      );
      expect(ids[1]).toBeNull();
      for (const id of [ids[0]!, ids[2]!]) {
        expect(await eventsOfOrder(t.app.deps.database.db, 'order.created', id)).toBe(1);
      }
      expect(await countEvents(t.app.deps.database.db, 'order.created')).toBe(before + 4);
    });

    it('writes no event that no endpoint takes, none for a distribution that rolls back, and one for one that commits', async () => {
      // No endpoint takes tokens.distributed yet (acme's was deleted above): a committed
      // distribution writes no event, as nothing would read it (decision 0055).
      const none = await countEvents(t.app.deps.database.db, 'tokens.distributed');
      const unheard = await as(acmeAdmin).post('/api/v1/tokens/topup-token/employees', {
        items: [{ employee_id: staff.id, amount: 1 }],
      });
      expect(unheard.statusCode).toBe(200);
      expect(await countEvents(t.app.deps.database.db, 'tokens.distributed')).toBe(none);
      const endpoint = await as(acmeAdmin).post('/api/v1/webhooks', {
        url: 'https://hooks.example.test/acme-hr',
        events: ['tokens.distributed'],
      });
      expect(endpoint.statusCode).toBe(201);

      const before = await countEvents(t.app.deps.database.db, 'tokens.distributed');
      // Refused (more than the company holds): nothing.
      const refused = await as(acmeAdmin).post('/api/v1/tokens/topup-token/employees', {
        items: [{ employee_id: staff.id, amount: 1_000_000 }],
      });
      expect(refused.statusCode).toBe(409);
      // Written, event included, then rolled back by a later failure of its transaction.
      await expect(
        inTransaction(t.app.deps.database, async (tx) => {
          await distributeTokens(tx, {
            companyId: acme.id,
            items: [{ employee_id: staff.id, amount: 1 }],
            actorUserId: null,
            at: t.clock.now(),
          });
          expect(await countEvents(tx, 'tokens.distributed')).toBe(before + 1);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await countEvents(t.app.deps.database.db, 'tokens.distributed')).toBe(before);

      const done = await as(acmeAdmin).post('/api/v1/tokens/topup-token/employees', {
        items: [{ employee_id: staff.id, amount: 1 }],
      });
      expect(done.statusCode).toBe(200);
      expect(await countEvents(t.app.deps.database.db, 'tokens.distributed')).toBe(before + 1);
    });
  });
});
