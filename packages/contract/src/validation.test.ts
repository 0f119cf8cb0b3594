import { describe, expect, it } from 'vitest';
import { codeSchema, passwordSchema, usernameSchema } from './validation';
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
