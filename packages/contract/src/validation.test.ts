import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loginBodySchema, loginFieldErrors } from './iam';
import {
  codeSchema,
  nameSchema,
  parseValidationMessage,
  passwordSchema,
  renderValidationMessage,
  usernameSchema,
  validationErrorMap,
  validationMessage,
  VALIDATION_MESSAGES,
} from './validation';
import { ERROR_CATALOGUE } from './errors';
import { PERMISSIONS, can } from './permissions';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : r.error!.issues[0]!.message;

describe('password rules (spec 5)', () => {
  it('accepts a password with upper, lower, digit and special character', () => {
    expect(passwordSchema.safeParse('Passw0rd!').success).toBe(true);
  });
  it.each([
    ['Pw0!', 'v.password_length'],
    ['P'.repeat(30) + 'a0!x', 'v.password_length'],
    ['password0!', 'v.password_upper'],
    ['PASSWORD0!', 'v.password_lower'],
    ['Password!!', 'v.password_digit'],
    ['Password00', 'v.password_special'],
  ])('refuses %s with %s', (value, key) => {
    expect(firstMessage(passwordSchema.safeParse(value))).toBe(key);
  });
  it('counts underscore as a special character', () => {
    expect(passwordSchema.safeParse('Password_1').success).toBe(true);
  });
});

describe('codes and usernames', () => {
  it('refuses codes outside 3 to 12 letters and digits', () => {
    expect(firstMessage(codeSchema.safeParse('AB'))).toBe('v.code_length');
    expect(firstMessage(codeSchema.safeParse('ABCDEFGHIJKLM'))).toBe('v.code_length');
    expect(firstMessage(codeSchema.safeParse('AB-1'))).toBe('v.code_chars');
    expect(codeSchema.safeParse('ACME01').success).toBe(true);
  });
  it('allows letters, digits, underscore and dot in usernames', () => {
    expect(usernameSchema.safeParse('jane.doe_1').success).toBe(true);
    expect(firstMessage(usernameSchema.safeParse('jane doe'))).toBe('v.username_chars');
  });
});

describe('catalogue and permissions', () => {
  it('has both languages for every error code', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(entry.en, code).not.toBe('');
      expect(entry.zh, code).not.toBe('');
    }
  });
  it('denies unknown roles and follows the sidebar table of spec 6', () => {
    expect(can('hacker', 'dashboard.view')).toBe(false);
    expect(can('company_admin', 'employees.view')).toBe(true);
    expect(can('admin', 'employees.view')).toBe(false);
    expect(PERMISSIONS['companies.view']).toEqual(['admin', 'super_hr']);
  });
});

describe('one voice for validation messages (decision 0026)', () => {
  // Each message says what to do, or states the rule; spec 5 quotes the one exception.
  const SPEC_QUOTED = new Set(['v.tokens_exceed']);
  const ENGLISH = /^(?:(?:Enter|Choose|Fill in|Upload|Remove|Start) |[A-Z][^.!?]* (?:must|may) )/;
  const CHINESE = /^请|须|至少|最多|只能|不能/;

  it.each(Object.entries(VALIDATION_MESSAGES).filter(([key]) => !SPEC_QUOTED.has(key)))(
    '%s says what to do or states the rule, in both languages',
    (_, { en, zh }) => {
      expect(en).toMatch(ENGLISH);
      expect(en).not.toMatch(/\.$/);
      expect(zh).toMatch(CHINESE);
      // Chinese, not English left untranslated.
      expect(zh).toMatch(/[\u4e00-\u9fff]/);
    },
  );

  it('names the same placeholders in English and Chinese', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
    for (const [key, { en, zh }] of Object.entries(VALIDATION_MESSAGES)) {
      expect(placeholders(zh), key).toEqual(placeholders(en));
    }
  });

  it('carries a limit in the message and fills it in either language', () => {
    const message = validationMessage('v.text_max', { max: 200 });
    expect(message).toBe('v.text_max?max=200');
    expect(parseValidationMessage(message)).toEqual({ key: 'v.text_max', values: { max: '200' } });
    expect(renderValidationMessage(message, 'en')).toBe('Enter at most 200 characters');
    expect(renderValidationMessage(message, 'zh')).toBe('最多只能输入 200 个字符');
    expect(renderValidationMessage('v.required', 'zh')).toBe('请填写此项');
    expect(renderValidationMessage('Too big: expected string', 'en')).toBe(
      'Too big: expected string',
    );
    expect(parseValidationMessage('v.nothing?max=1')).toBeNull();
  });
});

describe('the error map of the forms', () => {
  const messagesOf = (schema: z.ZodType, value: unknown) => {
    const result = schema.safeParse(value, { error: validationErrorMap });
    return result.success ? [] : result.error.issues.map((issue) => issue.message);
  };

  it('turns a check without its own key into a key that names its limit', () => {
    expect(messagesOf(z.string().max(5), 'toolong')).toEqual(['v.text_max?max=5']);
    expect(messagesOf(z.string().min(3), 'ab')).toEqual(['v.text_min?min=3']);
    expect(messagesOf(z.string().min(1), '')).toEqual(['v.required']);
    expect(messagesOf(z.number().max(9), 10)).toEqual(['v.number_max?max=9']);
    expect(messagesOf(z.number().min(2), 1)).toEqual(['v.number_min?min=2']);
    expect(messagesOf(z.number(), 'abc')).toEqual(['v.number_invalid']);
    expect(messagesOf(z.number(), undefined)).toEqual(['v.required']);
    expect(messagesOf(z.enum(['a', 'b']), 'c')).toEqual(['v.choose_option']);
    expect(messagesOf(z.email(), 'nope')).toEqual(['v.email_invalid']);
    expect(messagesOf(z.strictObject({}), { extra: 1 })).toEqual(['v.unknown_field']);
  });

  it('leaves a schema its own key', () => {
    expect(messagesOf(codeSchema, 'AB')).toEqual(['v.code_length']);
    expect(messagesOf(nameSchema, 'x'.repeat(201))).toEqual(['v.name_max']);
  });
});

describe('the sign-in check without zod', () => {
  const fromSchema = (body: { username: string; password: string }) => {
    const result = loginBodySchema.safeParse(body);
    const errors: Record<string, string> = {};
    if (!result.success) {
      for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
    }
    return errors;
  };

  it.each([
    { username: '', password: '' },
    { username: '   ', password: 'x' },
    { username: 'admin', password: '' },
    { username: ' admin ', password: 'Demo@2026' },
    { username: 'a'.repeat(254), password: 'p'.repeat(256) },
    { username: 'a'.repeat(255), password: 'p'.repeat(257) },
    { username: ` ${'a'.repeat(254)} `, password: ' ' },
  ])('gives loginBodySchema’s messages for %j', (body) => {
    expect(loginFieldErrors(body)).toEqual(fromSchema(body));
  });
});
