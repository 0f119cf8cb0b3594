import { z } from 'zod';

/** TOTP parameters (DESIGN 4.1, RFC 6238): SHA-1, 30-second steps, 6 digits, ±1 step. */
export const TOTP_PARAMS = { algorithm: 'SHA1', digits: 6, period: 30, window: 1 } as const;
export const RECOVERY_CODE_COUNT = 10;

/** A 6-digit TOTP code; spaces a user types between the digits are dropped. */
export const totpCodeSchema = z
  .string('v.mfa_code_format')
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'v.mfa_code_format'))
  .meta({ example: '492039' });

/** A recovery code as shown (`abcde-fghij`); case, spaces and dashes do not matter. */
export const recoveryCodeSchema = z
  .string('v.recovery_code_required')
  .trim()
  .min(1, 'v.recovery_code_required')
  .max(64);

/** POST /iam/mfa/totp → the pending secret (base32) and its otpauth:// URL for a QR code. */
export const totpEnrolmentSchema = z.object({ secret: z.string(), otpauth_url: z.string() });
export const totpEnrolmentResponseSchema = z.object({ data: totpEnrolmentSchema });
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

/** POST /iam/mfa/totp/verify { code } turns TOTP on. */
export const totpVerifyBodySchema = z.strictObject({ code: totpCodeSchema });
export type TotpVerifyBody = z.input<typeof totpVerifyBodySchema>;
export const recoveryCodesResponseSchema = z.object({
  data: z.object({ recovery_codes: z.array(z.string()) }),
});
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

/**
 * A second factor: `{ code }` (a TOTP code, or a recovery code typed in the same field) or
 * `{ recovery_code }`. Used by POST /iam/login/mfa and DELETE /iam/mfa/totp.
 */
export const mfaCodeBodySchema = z
  .strictObject({
    code: z.string('v.mfa_code_format').trim().min(1, 'v.mfa_code_format').max(64).optional(),
    recovery_code: recoveryCodeSchema.optional(),
  })
  .refine((body) => (body.code === undefined) !== (body.recovery_code === undefined), {
    message: 'v.mfa_one_code',
    path: ['code'],
  })
  // One of the two, never both.
  .meta({
    oneOf: [{ required: ['code'] }, { required: ['recovery_code'] }],
    example: { code: '492039' },
  });
export type MfaCodeBody = z.input<typeof mfaCodeBodySchema>;

/** GET /iam/mfa: the signed-in user's second factor. */
export const mfaStatusSchema = z.object({
  mfa_enabled: z.boolean(),
  /** The user's role must enrol (MFA_REQUIRED_ROLES); until it has, only enrolment is open. */
  mfa_enrolment_required: z.boolean(),
  /** Unused recovery codes left (0 when TOTP is off). */
  recovery_codes_remaining: z.number().int(),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;
export const mfaStatusResponseSchema = z.object({ data: mfaStatusSchema });

/** POST /iam/login with TOTP on: the password was right, a second step is pending. */
export const mfaRequiredSchema = z.object({ mfa_required: z.literal(true) });

/**
 * POST /iam/reauthenticate (step-up, DESIGN 9): the password again, or for a user with two-factor
 * sign-in its code (or a recovery code) instead.
 */
export const reauthenticateBodySchema = z.strictObject({
  password: z.string().min(1, 'v.required').max(1024).optional(),
  code: z.string('v.mfa_code_format').trim().min(1, 'v.mfa_code_format').max(64).optional(),
  recovery_code: recoveryCodeSchema.optional(),
});
export type ReauthenticateBody = z.input<typeof reauthenticateBodySchema>;

export const reauthenticatedSchema = z.object({
  /** When the session proved who it is; a step-up is good for STEP_UP_WINDOW_SECONDS from then. */
  authenticated_at: z.iso.datetime(),
  /** Which proof the user gives: its password, or its second factor (`totp`). */
  factor: z.enum(['password', 'totp']),
});
export type Reauthenticated = z.infer<typeof reauthenticatedSchema>;
