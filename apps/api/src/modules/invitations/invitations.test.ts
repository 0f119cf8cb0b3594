import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import {
  auditRowsOf,
  newCompany,
  newMerchant,
  signedIn,
  type SignedInUser,
} from '../../../test/management';
import { createMailer, type Mailer } from '../../lib/mailer';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

/** A real SMTP server on a free local port, keeping every message it accepts. */
async function startSmtpServer() {
  const received: Received[] = [];
  const waiting: ((message: Received) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const message: Received = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        received.push(message);
        waiting.shift()?.(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    /** The next message, or one already received and not yet taken. */
    next: (taken: number) =>
      received.length > taken
        ? Promise.resolve(received[taken]!)
        : new Promise<Received>((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text of a single-part message, undoing its transfer encoding. */
function bodyText(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64')
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

const tokenOf = (url: string) => new URL(url).hash.replace(/^#token=/, '');

describe.each(await testDatabaseKinds())('invitations on %s', (kind) => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let mailer: Mailer;
  let t: TestApp;
  let admin: SignedInUser;
  let company: Company;
  let taken = 0;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    mailer = createMailer({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'Back Office <no-reply@backoffice.test>',
    })!;
    t = await createTestApp(kind, {}, { mailer });
    admin = await signedIn(t, 'admin');
    company = await newCompany(t);
  });
  afterAll(async () => {
    mailer.close();
    await t.close();
    await smtp.close();
  });

  const post = (url: string, payload: object, who?: SignedInUser) =>
    who
      ? injectAs(t.app, who.session, { method: 'POST', url, payload })
      : t.app.inject({ method: 'POST', url, payload });
  const signInAs = (username: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/iam/login',
      payload: { username, password },
    });

  it('emails a company admin a link through SMTP that sets the password once', async () => {
    const username = `inv.${kind}`;
    const res = await post(
      '/api/v1/companies/admin/invitations',
      { company_id: company.id, username, email: `${username}@example.test`, status: 'active' },
      admin,
    );
    expect(res.statusCode).toBe(201);
    const invitation = res.json().data;
    expect(invitation).toMatchObject({ emailed: true, user: { username, type: 'company_admin' } });
    expect(invitation.url).toMatch(/^http:\/\/localhost(:\d+)?\/set-password#token=[\w-]{43}$/);
    expect(Date.parse(invitation.expires_at) - t.clock.now().getTime()).toBe(72 * 3_600_000);

    const mail = await smtp.next(taken++);
    expect(mail.from).toBe('no-reply@backoffice.test');
    expect(mail.to).toEqual([`${username}@example.test`]);
    const text = bodyText(mail.raw);
    expect(text).toContain(invitation.url);
    expect(text).toContain(`Hello ${username},`);
    const token = tokenOf(invitation.url);

    // Nobody knows the password before the link is used.
    expect((await signInAs(username, 'Passw0rd!')).statusCode).toBe(401);
    const lookup = await post('/api/v1/iam/invitations/lookup', { token });
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json().data).toEqual({ username, expires_at: invitation.expires_at });

    const mismatch = await post('/api/v1/iam/invitations/accept', {
      token,
      password: 'Chosen@2026',
      confirm_password: 'Chosen@2027',
    });
    expect(mismatch.json().code).toBe('PASSWORD_NOT_MATCH');
    const weak = await post('/api/v1/iam/invitations/accept', {
      token,
      password: 'short',
      confirm_password: 'short',
    });
    expect(weak.statusCode).toBe(400);

    const accepted = await post('/api/v1/iam/invitations/accept', {
      token,
      password: 'Chosen@2026',
      confirm_password: 'Chosen@2026',
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data).toMatchObject({ ok: true, username });
    expect((await signInAs(username, 'Chosen@2026')).statusCode).toBe(200);

    // Spent: a second use is refused, and the password stays the first one chosen.
    const again = await post('/api/v1/iam/invitations/accept', {
      token,
      password: 'Other@2026',
      confirm_password: 'Other@2026',
    });
    expect(again.statusCode).toBe(410);
    expect(again.json().code).toBe('INVITATION_INVALID');
    expect((await post('/api/v1/iam/invitations/lookup', { token })).statusCode).toBe(410);
    expect((await signInAs(username, 'Other@2026')).statusCode).toBe(401);

    const audit = await auditRowsOf(t, 'user', invitation.user.user_id);
    expect(audit.map((row) => row.action)).toEqual([
      'create',
      'invite',
      'invitation_email',
      'accept_invitation',
    ]);
    expect(audit[1]!.actor_user_id).toBe(admin.user.id);
    expect(audit[2]!.after).toMatchObject({ sent: true, to: `${username}@example.test` });
    expect(audit[3]!.actor_user_id).toBe(invitation.user.user_id);
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('invites a platform user; the link expires after 72 hours and an unknown one is refused', async () => {
    const username = `hr.${kind}`;
    const res = await post(
      '/api/v1/users/invitations',
      { username, email: `${username}@example.test`, type: 'super_hr', status: 'active' },
      admin,
    );
    expect(res.statusCode).toBe(201);
    const { url } = res.json().data;
    await smtp.next(taken++);
    t.clock.advance(72 * 3_600_000 + 1);
    const late = await post('/api/v1/iam/invitations/accept', {
      token: tokenOf(url),
      password: 'Chosen@2026',
      confirm_password: 'Chosen@2026',
    });
    expect(late.statusCode).toBe(410);
    const unknown = await post('/api/v1/iam/invitations/lookup', { token: 'x'.repeat(43) });
    expect(unknown.json().code).toBe('INVITATION_INVALID');
  });

  // Issue 39 item 5 (decision 0070): deactivating an account stops its link too.
  it('refuses the link of a deactivated account, and keeps it for a reactivated one', async () => {
    // Signed in now: the tests before move the clock past a session's life.
    const boss = await signedIn(t, 'admin');
    const username = `off.${kind}`;
    const res = await post(
      '/api/v1/users/invitations',
      { username, email: `${username}@example.test`, type: 'super_hr', status: 'active' },
      boss,
    );
    expect(res.statusCode).toBe(201);
    const { url, user } = res.json().data;
    await smtp.next(taken++);
    const token = tokenOf(url);
    const accept = { token, password: 'Chosen@2026', confirm_password: 'Chosen@2026' };
    const setStatus = (status: string) =>
      injectAs(t.app, boss.session, {
        method: 'PATCH',
        url: `/api/v1/users/${user.user_id}/status`,
        payload: { status },
      });
    expect((await setStatus('inactive')).statusCode).toBe(200);

    const lookup = await post('/api/v1/iam/invitations/lookup', { token });
    expect(lookup.statusCode).toBe(403);
    expect(lookup.json()).toMatchObject({ code: 'INVITATION_ACCOUNT_INACTIVE' });
    const refused = await post('/api/v1/iam/invitations/accept', accept);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'INVITATION_ACCOUNT_INACTIVE' });
    // No password was set: reactivated, the account still has no way in but its link.
    expect((await setStatus('active')).statusCode).toBe(200);
    expect((await signInAs(username, 'Chosen@2026')).statusCode).toBe(401);
    const accepted = await post('/api/v1/iam/invitations/accept', accept);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await signInAs(username, 'Chosen@2026')).statusCode).toBe(200);
  });

  it('counts each company’s admins on the company list (an invited one included)', async () => {
    const fresh = await signedIn(t, 'admin');
    const lonely = await newCompany(t);
    const res = await injectAs(t.app, fresh.session, {
      method: 'GET',
      url: '/api/v1/companies?page=1&page_size=50',
    });
    const rows = res.json().data as { id: number; admin_count: number }[];
    expect(rows.find((row) => row.id === company.id)?.admin_count).toBe(1);
    expect(rows.find((row) => row.id === lonely.id)?.admin_count).toBe(0);
  });

  it('is for those who may create the account', async () => {
    // A fresh session: the clock moved past the first one's lifetime above.
    const freshAdmin = await signedIn(t, 'admin');
    const companyAdmin = await signedIn(t, 'company_admin', { companyId: company.id });
    const res = await post(
      '/api/v1/users/invitations',
      { username: 'nope.user', email: 'nope@example.test', type: 'admin', status: 'active' },
      companyAdmin,
    );
    expect(res.statusCode).toBe(403);
    const taken409 = await post(
      '/api/v1/companies/admin/invitations',
      {
        company_id: company.id,
        username: `inv.${kind}`,
        email: 'another@example.test',
        status: 'active',
      },
      freshAdmin,
    );
    expect(taken409.statusCode).toBe(409);
  });
});

describe.each(await testDatabaseKinds())('a new invitation for the same account on %s', (kind) => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let mailer: Mailer;
  let t: TestApp;
  let company: Company;
  let taken = 0;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    mailer = createMailer({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'Back Office <no-reply@backoffice.test>',
    })!;
    t = await createTestApp(kind, {}, { mailer });
    company = await newCompany(t);
  });
  afterAll(async () => {
    mailer.close();
    await t.close();
    await smtp.close();
  });

  const post = (url: string, payload: object | undefined, who?: SignedInUser) =>
    who
      ? injectAs(t.app, who.session, { method: 'POST', url, ...(payload && { payload }) })
      : t.app.inject({ method: 'POST', url, payload });
  const accept = (token: string, password: string) =>
    post('/api/v1/iam/invitations/accept', { token, password, confirm_password: password });
  const adminsOf = async (who: SignedInUser) =>
    (
      await injectAs(t.app, who.session, {
        method: 'GET',
        url: `/api/v1/companies/admin?company_id=${company.id}&page=1&page_size=50`,
      })
    ).json().data as { user_id: number; invitation: unknown }[];

  it('ends the open link of a company admin and issues a fresh one, mailed, which works once', async () => {
    const admin = await signedIn(t, 'admin');
    const username = `again.${kind}`;
    const first = await post(
      '/api/v1/companies/admin/invitations',
      { company_id: company.id, username, email: `${username}@example.test`, status: 'active' },
      admin,
    );
    expect(first.statusCode).toBe(201);
    const invited = first.json().data;
    expect(invited.user.invitation).toEqual({ status: 'pending', expires_at: invited.expires_at });
    await smtp.next(taken++);
    const userId = invited.user.user_id as number;

    // Within its 72 hours, a new link ends the first one (still unexpired).
    const second = await post(`/api/v1/companies/admin/${userId}/invitations`, undefined, admin);
    expect(second.statusCode).toBe(201);
    const resent = second.json().data;
    expect(resent.url).not.toBe(invited.url);
    expect(bodyText((await smtp.next(taken++)).raw)).toContain(resent.url);
    const old = tokenOf(invited.url);
    expect((await post('/api/v1/iam/invitations/lookup', { token: old })).statusCode).toBe(410);
    expect((await accept(old, 'Chosen@2026')).json().code).toBe('INVITATION_INVALID');

    // Three days later that one has expired: the list says so, and a third link is issued.
    t.clock.advance(73 * 3_600_000);
    const later = await signedIn(t, 'admin');
    expect((await adminsOf(later)).find((row) => row.user_id === userId)?.invitation).toEqual({
      status: 'expired',
      expires_at: resent.expires_at,
    });
    const res = await post(`/api/v1/companies/admin/${userId}/invitations`, undefined, later);
    expect(res.statusCode).toBe(201);
    const again = res.json().data;
    expect(again).toMatchObject({ emailed: true, user: { user_id: userId, username } });
    expect(again.url).toMatch(/\/set-password#token=[\w-]{43}$/);
    expect(Date.parse(again.expires_at) - t.clock.now().getTime()).toBe(72 * 3_600_000);
    expect(again.user.invitation).toEqual({ status: 'pending', expires_at: again.expires_at });
    const mail = await smtp.next(taken++);
    expect(mail.to).toEqual([`${username}@example.test`]);
    expect(bodyText(mail.raw)).toContain(again.url);

    const fresh = tokenOf(again.url);
    expect((await accept(fresh, 'Chosen@2026')).statusCode).toBe(200);
    expect((await accept(fresh, 'Other@2026')).statusCode).toBe(410);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/iam/login',
      payload: { username, password: 'Chosen@2026' },
    });
    expect(signIn.statusCode).toBe(200);

    // It has a password now: no badge, and nothing to send again.
    expect((await adminsOf(later)).find((row) => row.user_id === userId)?.invitation).toBeNull();
    const done = await post(`/api/v1/companies/admin/${userId}/invitations`, undefined, later);
    expect(done.statusCode).toBe(409);
    expect(done.json().code).toBe('INVITATION_NOT_PENDING');

    const audit = await auditRowsOf(t, 'user', userId);
    expect(audit.map((row) => row.action)).toEqual([
      'create',
      'invite',
      'invitation_email',
      'resend_invitation',
      'invitation_email',
      'resend_invitation',
      'invitation_email',
      'accept_invitation',
    ]);
    expect(audit[3]!.actor_user_id).toBe(admin.user.id);
    expect(audit[3]!.after).toMatchObject({ expires_at: resent.expires_at, links_revoked: 1 });
    expect(audit[5]!.actor_user_id).toBe(later.user.id);
    expect(audit[5]!.after).toMatchObject({ expires_at: again.expires_at, links_revoked: 1 });
    expect(JSON.stringify(audit)).not.toContain(fresh);
  });

  it('is 409 for an account created with a password, or given one by an admin since', async () => {
    const admin = await signedIn(t, 'admin');
    const typed = await post(
      '/api/v1/users',
      {
        username: `typed.${kind}`,
        email: `typed.${kind}@example.test`,
        type: 'super_hr',
        status: 'active',
        password: 'Typed@2026',
        confirm_password: 'Typed@2026',
      },
      admin,
    );
    expect(typed.json().data.invitation).toBeNull();
    const typedAgain = await post(
      `/api/v1/users/${typed.json().data.user_id}/invitations`,
      undefined,
      admin,
    );
    expect(typedAgain.statusCode).toBe(409);
    expect(typedAgain.json().code).toBe('INVITATION_NOT_PENDING');

    const invited = await post(
      '/api/v1/users/invitations',
      {
        username: `edited.${kind}`,
        email: `edited.${kind}@example.test`,
        type: 'super_hr',
        status: 'active',
      },
      admin,
    );
    await smtp.next(taken++);
    const { user, url } = invited.json().data;
    const edited = await injectAs(t.app, admin.session, {
      method: 'PUT',
      url: `/api/v1/users/${user.user_id}`,
      payload: {
        username: user.username,
        email: user.email,
        status: 'active',
        password: 'Given@2026',
        confirm_password: 'Given@2026',
      },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data.invitation).toBeNull();
    // The password the admin set ended the link: nobody can set another one with it.
    expect((await accept(tokenOf(url), 'Chosen@2026')).statusCode).toBe(410);
    const res = await post(`/api/v1/users/${user.user_id}/invitations`, undefined, admin);
    expect(res.json().code).toBe('INVITATION_NOT_PENDING');
  });

  it('is for those who may create that kind of account, within their scope', async () => {
    const admin = await signedIn(t, 'admin');
    const groupHr = await signedIn(t, 'super_hr');
    const companyAdmin = await signedIn(t, 'company_admin', { companyId: company.id });
    const merchant = await newMerchant(t);
    const merchantAdmin = await signedIn(t, 'merchant_admin', { merchantId: merchant.id });
    const otherMerchantAdmin = await signedIn(t, 'merchant_admin', {
      merchantId: (await newMerchant(t)).id,
    });

    const invitedAdmin = (
      await post(
        '/api/v1/companies/admin/invitations',
        {
          company_id: company.id,
          username: `scoped.${kind}`,
          email: `scoped.${kind}@example.test`,
          status: 'active',
        },
        admin,
      )
    ).json().data.user;
    await smtp.next(taken++);
    const staff = (
      await post(
        '/api/v1/users/invitations',
        {
          username: `staff.${kind}`,
          email: `staff.${kind}@example.test`,
          type: 'merchant_staff',
          status: 'active',
        },
        merchantAdmin,
      )
    ).json().data.user;
    await smtp.next(taken++);
    const hr = (
      await post(
        '/api/v1/users/invitations',
        {
          username: `hr2.${kind}`,
          email: `hr2.${kind}@example.test`,
          type: 'super_hr',
          status: 'active',
        },
        admin,
      )
    ).json().data.user;
    await smtp.next(taken++);

    const status = async (url: string, who: SignedInUser) =>
      (await post(url, undefined, who)).statusCode;
    // Company admins: the admin and Group HR, not a company admin; only company admins there.
    expect(
      await status(`/api/v1/companies/admin/${invitedAdmin.user_id}/invitations`, companyAdmin),
    ).toBe(403);
    expect(await status(`/api/v1/companies/admin/${hr.user_id}/invitations`, admin)).toBe(404);
    expect(await status(`/api/v1/users/${invitedAdmin.user_id}/invitations`, admin)).toBe(404);
    // Users: not Group HR (no users.manage); a merchant admin only its own merchant's staff.
    expect(await status(`/api/v1/users/${hr.user_id}/invitations`, groupHr)).toBe(403);
    expect(await status(`/api/v1/users/${hr.user_id}/invitations`, merchantAdmin)).toBe(403);
    expect(await status(`/api/v1/users/${staff.user_id}/invitations`, otherMerchantAdmin)).toBe(
      404,
    );
    expect(await status('/api/v1/users/999999/invitations', admin)).toBe(404);
    // No audit row of a refusal.
    expect((await auditRowsOf(t, 'user', invitedAdmin.user_id)).map((row) => row.action)).toEqual([
      'create',
      'invite',
      'invitation_email',
    ]);

    expect(
      await status(`/api/v1/companies/admin/${invitedAdmin.user_id}/invitations`, groupHr),
    ).toBe(201);
    await smtp.next(taken++);
    expect(await status(`/api/v1/users/${staff.user_id}/invitations`, merchantAdmin)).toBe(201);
    await smtp.next(taken++);
    expect(await status(`/api/v1/users/${hr.user_id}/invitations`, admin)).toBe(201);
    await smtp.next(taken++);
  });
});

describe.each(await testDatabaseKinds())('invitations without SMTP on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('hands the link to the inviting admin only', async () => {
    const admin = await signedIn(t, 'admin');
    const company = await newCompany(t);
    const res = await injectAs(t.app, admin.session, {
      method: 'POST',
      url: '/api/v1/companies/admin/invitations',
      payload: {
        company_id: company.id,
        username: 'nomail.admin',
        email: 'nomail@example.test',
        status: 'active',
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.emailed).toBe(false);
    const audit = await auditRowsOf(t, 'user', res.json().data.user.user_id);
    expect(audit.map((row) => row.action)).toEqual(['create', 'invite']);
  });
});
