import { z } from 'zod';
import { idSchema } from './validation';

/**
 * Pay codes (DESIGN 8, decision 0078): an employee registers a phone once and its wallet draws a
 * code that changes every 30 s, offline too. The code is the device's 12-digit number followed by
 * the 6-digit RFC 6238 TOTP of its secret (SHA-1, 30 s): 18 digits in all.
 */
export const PAY_CODE = {
  /** The device's number: 12 digits, never starting with 0. */
  deviceDigits: 12,
  /** The TOTP's digits. */
  totpDigits: 6,
  /** Seconds a code is drawn for. */
  period: 30,
  /** Steps either side of the server's clock a code is still good for (a phone's drift). */
  window: 1,
  algorithm: 'SHA1',
  /** At most this many pay devices per employee. */
  maxDevices: 3,
} as const;

export const PAY_CODE_LENGTH = PAY_CODE.deviceDigits + PAY_CODE.totpDigits;

/** A pay code as a till reads it: 18 digits, spaces and dashes of a typed code ignored. */
export const payCodeSchema = z
  .string('v.required')
  .transform((s) => s.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^\d{18}$/, 'v.pay_code_format'))
  .meta({ example: '402913775108839204' });

/** POST /me/pay-devices: the phone's name as the employee sees it in its list. */
export const registerPayDeviceBodySchema = z.strictObject({
  name: z.string('v.required').trim().min(1, 'v.required').max(100, 'v.device_name_max'),
});
export type RegisterPayDeviceBody = z.infer<typeof registerPayDeviceBodySchema>;

/** A registered pay device; never its secret. */
export const payDeviceSchema = z.object({
  /** The device's 12-digit number, the first part of each of its codes. */
  device_id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type PayDevice = z.infer<typeof payDeviceSchema>;

/** What POST /me/pay-devices answers once: the secret, shown this once and never again. */
export const registeredPayDeviceSchema = payDeviceSchema.extend({
  /** Base32, as authenticator apps take it. */
  secret: z.string(),
  period: z.number().int(),
  digits: z.number().int(),
  algorithm: z.string(),
});
export type RegisteredPayDevice = z.infer<typeof registeredPayDeviceSchema>;

/** A device's 12-digit number in a path. */
const deviceIdSchema = z
  .string()
  .regex(/^\d{12}$/)
  .meta({ example: '402913775108' });
export const payDeviceParamsSchema = z.object({ device_id: deviceIdSchema });
export const employeePayDeviceParamsSchema = z.object({ id: idSchema, device_id: deviceIdSchema });
