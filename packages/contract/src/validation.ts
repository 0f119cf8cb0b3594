import { z } from 'zod';
import {
  type ValidationMessageKey,
  validationMessage,
  PASSWORD_MIN,
  PASSWORD_MAX,
  CODE_MIN,
  CODE_MAX,
  EMPLOYEE_ID_MIN,
  EMPLOYEE_ID_MAX,
  USERNAME_MIN,
  USERNAME_MAX,
  RESET_DAY_MIN,
  RESET_DAY_MAX,
  INITIAL_TOKEN_MIN,
} from './constants';
import { decimalInteger, identifierText } from './strict-input';

export {
  VALIDATION_MESSAGES,
  isValidationMessageKey,
  parseValidationMessage,
  renderValidationMessage,
  validationMessage,
  type ValidationValues,
  PASSWORD_MIN,
  PASSWORD_MAX,
  CODE_MIN,
  CODE_MAX,
  EMPLOYEE_ID_MIN,
  EMPLOYEE_ID_MAX,
  USERNAME_MIN,
  USERNAME_MAX,
  RESET_DAY_MIN,
  RESET_DAY_MAX,
  INITIAL_TOKEN_MIN,
  PAGE_SIZES,
  type ValidationMessageKey,
} from './constants';
export {
  decimalInteger,
  hasNoHiddenCharacters,
  identifierText,
  normalizeIdentifier,
} from './strict-input';

/** Password rules of spec 5, enforced on every password set. */
export const passwordSchema = z
  .string('v.password_required')
  .min(1, 'v.password_required')
  .min(PASSWORD_MIN, 'v.password_length')
  .max(PASSWORD_MAX, 'v.password_length')
  .regex(/[A-Z]/, 'v.password_upper')
  .regex(/[a-z]/, 'v.password_lower')
  .regex(/\d/, 'v.password_digit')
  .regex(/[\W_]/, 'v.password_special')
  .meta({ example: 'Str0ng!Pass' });

export const usernameSchema = identifierText('v.username_required')
  .min(1, 'v.username_required')
  .min(USERNAME_MIN, 'v.username_length')
  .max(USERNAME_MAX, 'v.username_length')
  .regex(/^[A-Za-z0-9_.]+$/, 'v.username_chars');

export const emailSchema = z
  .string('v.email_required')
  .trim()
  .min(1, 'v.email_required')
  .max(254, 'v.email_invalid')
  .pipe(z.email('v.email_invalid'))
  .meta({ format: 'email', example: 'ana.lim@example.com' });

/** Company and merchant codes: 3 to 12 letters and digits. */
export const codeSchema = identifierText('v.code_required')
  .min(1, 'v.code_required')
  .min(CODE_MIN, 'v.code_length')
  .max(CODE_MAX, 'v.code_length')
  .regex(/^[A-Za-z0-9]+$/, 'v.code_chars');

export const NAME_MAX = 200;
export const nameSchema = z
  .string('v.name_required')
  .trim()
  .min(1, 'v.name_required')
  .max(NAME_MAX, 'v.name_max');

/** An optional name (an employee's): empty is allowed, long is not. */
export const optionalNameSchema = z.string('v.invalid').trim().max(NAME_MAX, 'v.name_max');

/** A note on a top-up or a distribution. */
export const noteSchema = z.string('v.invalid').trim().max(500, 'v.note_max');

export const employeeIdSchema = identifierText('v.employee_id_required')
  .min(1, 'v.employee_id_required')
  .min(EMPLOYEE_ID_MIN, 'v.employee_id_min')
  .max(EMPLOYEE_ID_MAX, 'v.employee_id_max');

/**
 * A number field's type error: missing is `required`, a number JSON cannot carry exactly (1e400
 * arrives as Infinity) is out of range, anything else is not a number.
 */
export const numberError =
  (required: ValidationMessageKey = 'v.required') =>
  (issue: { input?: unknown }): ValidationMessageKey =>
    issue.input === undefined
      ? required
      : typeof issue.input === 'number'
        ? 'v.number_range'
        : 'v.number_invalid';

/** A whole-number check whose failure past 2^53 - 1 says so (zod's int() refuses unsafe integers). */
export const wholeNumber = (tooBig: ValidationMessageKey = 'v.number_range') => ({
  error: (issue: { code?: string }): ValidationMessageKey =>
    issue.code === 'too_big' || issue.code === 'too_small' ? tooBig : 'v.integer',
});

export const resetDaySchema = z
  .number({ error: numberError('v.reset_day_required') })
  .int(wholeNumber('v.reset_day_range'))
  .min(RESET_DAY_MIN, 'v.reset_day_range')
  .max(RESET_DAY_MAX, 'v.reset_day_range');

export const initialTokenSchema = z
  .number({ error: numberError('v.amount_required') })
  .int(wholeNumber('v.amount_too_large'))
  .min(INITIAL_TOKEN_MIN, 'v.initial_token_min')
  .max(Number.MAX_SAFE_INTEGER, 'v.amount_too_large');

/** A positive whole token amount that stays exact in JSON. */
export const tokenAmountSchema = z
  .number({ error: numberError('v.amount_required') })
  .int(wholeNumber('v.amount_too_large'))
  .positive('v.amount_positive')
  .max(Number.MAX_SAFE_INTEGER, 'v.amount_too_large');

/** A record id in a path or query: decimal digits only (decimalInteger). */
export const idSchema = decimalInteger(z.number().int().positive());

/** What a zod issue carries that the error map reads (zod's own issue types, loosely). */
interface IssueLike {
  code?: string;
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
  format?: string;
}

/**
 * The error map of every form (decision 0026): a check without its own key still speaks with a
 * `v.*` key, never with zod's English. Schema-level messages take precedence over it; it names the
 * limit where the check has one (`v.text_max?max=200`).
 */
export function validationErrorMap(issue: IssueLike): string {
  const isEmpty = issue.input === undefined || issue.input === null || issue.input === '';
  switch (issue.code) {
    case 'invalid_type':
      if (isEmpty) return 'v.required';
      return issue.expected === 'number' || issue.expected === 'int'
        ? 'v.number_invalid'
        : 'v.invalid';
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? 'v.required'
          : validationMessage('v.text_min', { min: Number(issue.minimum) });
      }
      if (issue.origin === 'number' || issue.origin === 'int') {
        return validationMessage('v.number_min', { min: Number(issue.minimum) });
      }
      return issue.origin === 'array' && Number(issue.minimum) <= 1 ? 'v.required' : 'v.invalid';
    case 'too_big':
      if (issue.origin === 'string') {
        return validationMessage('v.text_max', { max: Number(issue.maximum) });
      }
      if (issue.origin === 'number' || issue.origin === 'int') {
        return validationMessage('v.number_max', { max: Number(issue.maximum) });
      }
      return 'v.invalid';
    case 'invalid_format':
      return issue.format === 'email' ? 'v.email_invalid' : 'v.invalid';
    case 'invalid_value':
      return isEmpty ? 'v.required' : 'v.choose_option';
    case 'unrecognized_keys':
      return 'v.unknown_field';
    case 'not_multiple_of':
      return 'v.integer';
    default:
      return 'v.invalid';
  }
}
