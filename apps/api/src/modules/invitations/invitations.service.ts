import crypto from 'node:crypto';
import {
  INVITATION_TTL_HOURS,
  type AcceptInvitationBody,
  type Invitation,
  type InvitationInfo,
  type ManagedUser,
} from '@app/contract';
import type { z } from 'zod';
import type { inviteCompanyAdminBodySchema, inviteUserBodySchema } from '@app/contract';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import { inTransaction } from '../../lib/transaction';
import { COMPANY_ADMIN_RULES, createCompanyAdmin } from '../company-admins';
import { setPassword } from '../iam';
import { recordUserLink } from '../iam';
import { hashToken, newToken } from '../iam';
import { changeAccountWith, createUser, type AccountRules, type AfterCreate } from '../users';
import {
  closeOpenInvitations,
  consumeInvitation,
  lookupOpenInvitation,
  insertInvitation,
} from './invitations.repository';

const USER_ENTITY = 'user';
/** Where the web app's public set-password page is; the token rides in the fragment, never sent to a server. */
export const SET_PASSWORD_PATH = '/set-password';

/**
 * A password nobody knows, for the account until its owner sets one: 144 random bits plus one
 * character of each class the password rules ask for (28 characters, within their 8 to 32).
 */
const unknowablePassword = () => `${crypto.randomBytes(18).toString('base64url')}Aa1!`;

interface Issued {
  token: string;
  expiresAt: Date;
}

/** Stores a new link for the user being created, in its transaction, with its audit row. */
function issueInvitation(deps: ServiceDeps, actor: AuditActor, issued: Issued): AfterCreate {
  return async (tx, user) => {
    const at = deps.clock.now();
    await insertInvitation(tx, {
      tokenHash: hashToken(issued.token),
      userId: user.user_id,
      invitedBy: actor.userId,
      at,
      expiresAt: issued.expiresAt,
    });
    await recordUserLink(tx, {
      actorUserId: actor.userId,
      targetUserId: user.user_id,
      kind: 'invited',
      at,
    });
    await recordAudit(tx, {
      actor,
      action: 'invite',
      entityType: USER_ENTITY,
      entityId: user.user_id,
      after: { username: user.username, email: user.email, expires_at: issued.expiresAt },
      at,
    });
  };
}

/** Mails the link when a mailer is configured; a refused or failed send is said, not thrown. */
async function mailInvitation(
  deps: ServiceDeps,
  actor: AuditActor,
  user: ManagedUser,
  url: string,
  expiresAt: Date,
  log: { warn: (payload: object, message: string) => void },
): Promise<boolean> {
  if (!deps.mailer || !user.email) return false;
  let emailed = false;
  try {
    await deps.mailer.send({
      to: user.email,
      subject: 'Set your password for the Token Back Office / 设置您的 Token 后台密码',
      text: [
        `Hello ${user.username},`,
        '',
        'An administrator created an account for you. Open this link to choose your password.',
        `It works once and expires on ${expiresAt.toISOString()} (UTC).`,
        '',
        url,
        '',
        `${user.username}，您好：管理员为您创建了账户。请打开上面的链接设置密码；链接仅可使用一次，将于 ${expiresAt.toISOString()}（UTC）过期。`,
      ].join('\n'),
    });
    emailed = true;
  } catch (error) {
    log.warn({ err: error, userId: user.user_id }, 'invitation email not sent');
  }
  await inTransaction(deps.database, (tx) =>
    recordAudit(tx, {
      actor,
      action: 'invitation_email',
      entityType: USER_ENTITY,
      entityId: user.user_id,
      after: { to: user.email, sent: emailed },
      at: deps.clock.now(),
    }),
  );
  return emailed;
}

export interface InviteContext {
  /** The web app's origin as the inviting admin reached it, e.g. https://backoffice.example. */
  origin: string;
  log: { warn: (payload: object, message: string) => void };
}

/** A fresh link: a random token and its expiry, INVITATION_TTL_HOURS from now. */
const newIssued = (deps: ServiceDeps): Issued => ({
  token: newToken(),
  expiresAt: new Date(deps.clock.now().getTime() + INVITATION_TTL_HOURS * 3_600_000),
});

/** The link handed over (and mailed when a mailer is configured), once the account's row commits. */
async function handOver(
  deps: ServiceDeps,
  actor: AuditActor,
  context: InviteContext,
  user: ManagedUser,
  issued: Issued,
): Promise<Invitation> {
  const url = `${context.origin}${SET_PASSWORD_PATH}#token=${issued.token}`;
  const emailed = await mailInvitation(deps, actor, user, url, issued.expiresAt, context.log);
  return { user, url, expires_at: issued.expiresAt.toISOString(), emailed };
}

async function invite(
  deps: ServiceDeps,
  actor: AuditActor,
  context: InviteContext,
  create: (afterCreate: AfterCreate, password: string) => Promise<ManagedUser>,
): Promise<Invitation> {
  const issued = newIssued(deps);
  const created = await create(issueInvitation(deps, actor, issued), unknowablePassword());
  // The account as read when created, before its link: it has no password yet.
  const user: ManagedUser = {
    ...created,
    invitation: { status: 'pending', expires_at: issued.expiresAt.toISOString() },
  };
  return handOver(deps, actor, context, user, issued);
}

/**
 * A new link for an account that has no password yet: every open link of it ends (the old one
 * stops working) and a fresh one is issued for INVITATION_TTL_HOURS, in one transaction with the
 * account's row locked and a `resend_invitation` audit row; then it is handed over and mailed as
 * the first one was. An account with a password (its link used, or none ever) is 409
 * INVITATION_NOT_PENDING; one outside the caller's scope is refused as its edit would be.
 */
async function reinvite(
  deps: ServiceDeps,
  actor: AuditActor,
  scope: AccountRules,
  userId: number,
  context: InviteContext,
): Promise<Invitation> {
  const issued = newIssued(deps);
  const user = await changeAccountWith(deps, userId, scope, async (tx) => {
    const at = deps.clock.now();
    const revoked = await closeOpenInvitations(tx, userId, at);
    if (revoked === 0) throw new AppError('INVITATION_NOT_PENDING');
    await insertInvitation(tx, {
      tokenHash: hashToken(issued.token),
      userId,
      invitedBy: actor.userId,
      at,
      expiresAt: issued.expiresAt,
    });
    await recordUserLink(tx, {
      actorUserId: actor.userId,
      targetUserId: userId,
      kind: 'invited',
      at,
    });
    await recordAudit(tx, {
      actor,
      action: 'resend_invitation',
      entityType: USER_ENTITY,
      entityId: userId,
      after: { expires_at: issued.expiresAt, links_revoked: revoked },
      at,
    });
  });
  return handOver(deps, actor, context, user, issued);
}

/** POST /users/{id}/invitations: a new link for a user the caller manages (usersScopeOf). */
export const resendUserInvitation = (
  deps: ServiceDeps,
  actor: AuditActor,
  scope: AccountRules,
  userId: number,
  context: InviteContext,
): Promise<Invitation> => reinvite(deps, actor, scope, userId, context);

/** POST /companies/admin/{user_id}/invitations: a new link for a company admin. */
export const resendCompanyAdminInvitation = (
  deps: ServiceDeps,
  actor: AuditActor,
  userId: number,
  context: InviteContext,
): Promise<Invitation> => reinvite(deps, actor, COMPANY_ADMIN_RULES, userId, context);

/** POST /users/invitations: a platform or merchant user the caller may create, invited. */
export const inviteUser = (
  deps: ServiceDeps,
  actor: AuditActor,
  scope: AccountRules,
  body: z.output<typeof inviteUserBodySchema>,
  context: InviteContext,
): Promise<Invitation> =>
  invite(deps, actor, context, (afterCreate, password) =>
    createUser(deps, actor, scope, { ...body, password, confirm_password: password }, afterCreate),
  );

/** POST /companies/admin/invitations: a company admin, invited. */
export const inviteCompanyAdmin = (
  deps: ServiceDeps,
  actor: AuditActor,
  body: z.output<typeof inviteCompanyAdminBodySchema>,
  context: InviteContext,
): Promise<Invitation> =>
  invite(deps, actor, context, (afterCreate, password) =>
    createCompanyAdmin(deps, actor, { ...body, password, confirm_password: password }, afterCreate),
  );

/** POST /iam/invitations/lookup: whose open link this is (INVITATION_INVALID otherwise). */
export async function lookUpInvitation(
  { database, clock }: ServiceDeps,
  token: string,
): Promise<InvitationInfo> {
  const found = await lookupOpenInvitation(database.db, hashToken(token), clock.now());
  if (!found) throw new AppError('INVITATION_INVALID');
  if (!found.isActive) throw new AppError('INVITATION_ACCOUNT_INACTIVE');
  return { username: found.username, expires_at: found.expiresAt.toISOString() };
}

/**
 * POST /iam/invitations/accept: sets the password the link's owner chose and spends the link (and
 * any other open link of theirs), in one transaction; a used, expired or unknown link is
 * INVITATION_INVALID, the link of a deactivated (or deleted) account 403
 * INVITATION_ACCOUNT_INACTIVE, the link left as it was (issue 39, decision 0070). Audited as the
 * user's own act.
 */
export async function acceptInvitation(
  { database, clock }: ServiceDeps,
  body: AcceptInvitationBody,
  ip: string | null,
): Promise<InvitationInfo> {
  if (body.password !== body.confirm_password) {
    throw new AppError('PASSWORD_NOT_MATCH', {
      metadata: { confirm_password: 'v.password_match' },
    });
  }
  const tokenHash = hashToken(body.token);
  return inTransaction(database, async (tx) => {
    const now = clock.now();
    const found = await lookupOpenInvitation(tx, tokenHash, now, true);
    if (found && !found.isActive) throw new AppError('INVITATION_ACCOUNT_INACTIVE');
    const userId = await consumeInvitation(tx, tokenHash, now);
    if (!found || userId === undefined) throw new AppError('INVITATION_INVALID');
    await setPassword(tx, clock, { userId, password: body.password });
    await recordAudit(tx, {
      actor: { userId, ip },
      action: 'accept_invitation',
      entityType: USER_ENTITY,
      entityId: userId,
      after: { password_changed: true },
      at: now,
    });
    return { username: found.username, expires_at: found.expiresAt.toISOString() };
  });
}
