import { z } from 'zod';
import { LOGIN_PASSWORD_MAX, LOGIN_USERNAME_MAX, validationMessage } from './constants';
import { roleSchema } from './roles';
import { normalizeIdentifier } from './strict-input';
import { statusSchema } from './statuses';

export { loginFieldErrors, LOGIN_PASSWORD_MAX, LOGIN_USERNAME_MAX } from './constants';

/**
 * POST /iam/login. `username` may be the username or the email. The sign-in form checks the same
 * rules without zod (`loginFieldErrors`, held to this schema by a test).
 */
export const loginBodySchema = z.strictObject({
  username: z
    .string('v.login_required')
    // NFKC like every stored username (normalizeIdentifier), so the lookup finds what was stored.
    .overwrite(normalizeIdentifier)
    .min(1, 'v.login_required')
    .max(LOGIN_USERNAME_MAX, validationMessage('v.text_max', { max: LOGIN_USERNAME_MAX })),
  password: z
    .string('v.password_required')
    .min(1, 'v.password_required')
    .max(LOGIN_PASSWORD_MAX, validationMessage('v.text_max', { max: LOGIN_PASSWORD_MAX })),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

/** The signed-in user (GET /iam/self-info), DESIGN 4. */
export const selfUserSchema = z.object({
  user_id: z.number().int(),
  type: roleSchema,
  username: z.string(),
  email: z.string().nullable(),
  employee_id: z.string().nullable(),
  company_id: z.number().int().nullable(),
  merchant_id: z.number().int().nullable(),
  status: statusSchema,
  /** TOTP is on for this user (DESIGN 4.1); always sent by the server. */
  mfa_enabled: z.boolean().optional(),
  /** The user's role must enrol and has not: only enrolment, self-info and sign-out are open. */
  mfa_enrolment_required: z.boolean().optional(),
});
export type SelfUser = z.infer<typeof selfUserSchema>;

/**
 * POST /iam/login (and POST /iam/login/mfa): `{ user }` when signed in; with TOTP on, the
 * password step answers `{ mfa_required: true }` and grants nothing until the second step.
 */
export const loginResponseSchema = z.object({
  data: z.union([z.object({ user: selfUserSchema }), z.object({ mfa_required: z.literal(true) })]),
});
export const signedInResponseSchema = z.object({ data: z.object({ user: selfUserSchema }) });
export type LoginResponse = z.infer<typeof loginResponseSchema>;
export const selfInfoResponseSchema = z.object({ data: selfUserSchema });
export type SelfInfoResponse = z.infer<typeof selfInfoResponseSchema>;

/** DELETE /users/{id}/sign-in-throttle (admin): how many sign-in counters of the user were cleared. */
export const clearSignInThrottleResponseSchema = z.object({
  data: z.object({ cleared: z.number().int().min(0) }),
});
export type ClearSignInThrottleResponse = z.infer<typeof clearSignInThrottleResponseSchema>;
