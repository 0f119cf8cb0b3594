import { z } from 'zod';
import { MERCHANT_ROLES } from './roles';
import { statusSchema } from './statuses';
import { managedUserSchema, managedUserTypeSchema } from './users';
import {
  emailSchema,
  numberError,
  passwordSchema,
  usernameSchema,
  wholeNumber,
} from './validation';

/**
 * Invitations (issue 19 item 5, decision 0025): a platform user or a company admin is created
 * without a password and given a one-time link to set one. The link's token is random (256 bits),
 * stored only as its SHA-256, used once, and expires after INVITATION_TTL_HOURS.
 */
export const INVITATION_TTL_HOURS = 72;

/** POST /users/invitations: the create body of POST /users without the password. */
export const inviteUserBodySchema = z
  .strictObject({
    username: usernameSchema,
    email: emailSchema,
    type: managedUserTypeSchema,
    status: statusSchema,
    merchant_id: z
      .number({ error: numberError('v.merchant_required') })
      .int(wholeNumber())
      .positive('v.merchant_required')
      .optional(),
  })
  .superRefine((body, ctx) => {
    const isMerchant = (MERCHANT_ROLES as readonly string[]).includes(body.type);
    if (!isMerchant && body.merchant_id !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['merchant_id'], message: 'v.merchant_not_allowed' });
    }
  })
  // `merchant_id` goes with the merchant roles, and only with them.
  .meta({
    example: {
      username: 'ana.lim',
      email: 'ana.lim@example.com',
      type: 'merchant_admin',
      status: 'active',
      merchant_id: 3,
    },
  });
export type InviteUserBody = z.input<typeof inviteUserBodySchema>;

/** POST /companies/admin/invitations: the create body of POST /companies/admin without the password. */
export const inviteCompanyAdminBodySchema = z.strictObject({
  company_id: z
    .number({ error: numberError('v.company_required') })
    .int(wholeNumber())
    .positive('v.company_required'),
  username: usernameSchema,
  email: emailSchema,
  status: statusSchema,
});
export type InviteCompanyAdminBody = z.input<typeof inviteCompanyAdminBodySchema>;

/**
 * The invited user and the link to hand over. `url` is shown once, to the inviting admin: only
 * its hash is kept. `emailed` says whether it was also sent to the user's email (SMTP configured
 * and the server accepted it).
 */
export const invitationSchema = z.object({
  user: managedUserSchema,
  url: z.string(),
  expires_at: z.string(),
  emailed: z.boolean(),
});
export type Invitation = z.infer<typeof invitationSchema>;

const invitationTokenSchema = z.string('v.invalid').min(1, 'v.invalid').max(200, 'v.invalid');

/** POST /iam/invitations/lookup (public): whose link this is, before the password is chosen. */
export const invitationLookupBodySchema = z.strictObject({ token: invitationTokenSchema });
export const invitationInfoSchema = z.object({ username: z.string(), expires_at: z.string() });
export type InvitationInfo = z.infer<typeof invitationInfoSchema>;

/** POST /iam/invitations/accept (public): the link's token and the new password, twice. */
export const acceptInvitationBodySchema = z.strictObject({
  token: invitationTokenSchema,
  password: passwordSchema,
  confirm_password: z.string().max(256),
});
export type AcceptInvitationBody = z.infer<typeof acceptInvitationBodySchema>;
