import { z } from 'zod';
import { roleSchema } from './roles';
import { statusSchema } from './statuses';

/** POST /iam/login. `username` may be the username or the email. */
export const loginBodySchema = z.strictObject({
  username: z.string('v.username_required').trim().min(1, 'v.username_required').max(254),
  password: z.string('v.password_required').min(1, 'v.password_required').max(256),
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
});
export type SelfUser = z.infer<typeof selfUserSchema>;

export const loginResponseSchema = z.object({ data: z.object({ user: selfUserSchema }) });
export type LoginResponse = z.infer<typeof loginResponseSchema>;
export const selfInfoResponseSchema = z.object({ data: selfUserSchema });
export type SelfInfoResponse = z.infer<typeof selfInfoResponseSchema>;

/** DELETE /users/{id}/sign-in-throttle (admin): how many sign-in counters of the user were cleared. */
export const clearSignInThrottleResponseSchema = z.object({
  data: z.object({ cleared: z.number().int().min(0) }),
});
export type ClearSignInThrottleResponse = z.infer<typeof clearSignInThrottleResponseSchema>;
