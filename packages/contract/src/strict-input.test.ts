import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageQuerySchema } from './common';
import { loginBodySchema } from './iam';
import { codeSchema, employeeIdSchema, idSchema, usernameSchema } from './validation';

const messageOf = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues[0]?.message;

describe('decimal integers (decision 0071)', () => {
  it('reads decimal digits and JSON numbers, and nothing z.coerce.number() also read', () => {
    expect(idSchema.parse('12')).toBe(12);
    expect(idSchema.parse('007')).toBe(7);
    expect(idSchema.parse(12)).toBe(12);
    for (const value of [
      '0x10',
      '1e1',
      '0b10',
      '0o7',
      ' 12',
      '12\n',
      '+5',
      '1.0',
      '١٢',
      '１２',
      '',
    ]) {
      expect(idSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
    // What the old schema made of some of them.
    const coerce = z.coerce.number().int();
    expect(['0x10', '1e1', '0b10', '0o7', ' 12', '+5', '1.0'].map((v) => coerce.parse(v))).toEqual([
      16, 10, 2, 7, 12, 5, 1,
    ]);
    expect(idSchema.safeParse('9007199254740993').success).toBe(false);
  });

  it('keeps the defaults and the JSON Schema of an integer', () => {
    expect(pageQuerySchema.parse({})).toEqual({ page: 1, page_size: 10 });
    expect(pageQuerySchema.safeParse({ page: '0x2' }).success).toBe(false);
    expect(z.toJSONSchema(idSchema, { io: 'input' })).toMatchObject({ type: 'integer' });
    expect(z.toJSONSchema(pageQuerySchema, { io: 'input' })).toMatchObject({
      properties: { page: { type: 'integer', default: 1 }, page_size: { default: 10 } },
    });
  });
});

describe('identifiers (decision 0071)', () => {
  it('folds compatibility forms (NFKC) before the rules, so full-width text is ASCII', () => {
    expect(employeeIdSchema.parse('Ｅ０００１')).toBe('E0001');
    expect(employeeIdSchema.parse('\u3000E0001 ')).toBe('E0001');
    expect(usernameSchema.parse('ａｄｍｉｎ.ｘ')).toBe('admin.x');
    expect(codeSchema.parse('ＡＣＭＥ１')).toBe('ACME1');
    expect(loginBodySchema.parse({ username: ' ａｄｍｉｎ ', password: 'x' }).username).toBe(
      'admin',
    );
  });

  it('refuses control, zero-width, bidirectional and other invisible characters', () => {
    for (const hidden of ['\u0000', '\u0007', '\u007F', '\u0085', '\u00AD', '\u061C', '\u180E']) {
      expect(messageOf(employeeIdSchema, `E0${hidden}01`)).toBe('v.identifier_chars');
    }
    for (let c = 0x200b; c <= 0x200f; c += 1) {
      expect(messageOf(employeeIdSchema, `E0${String.fromCharCode(c)}01`)).toBe(
        'v.identifier_chars',
      );
    }
    for (const c of [
      0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2066, 0x2067, 0x2068, 0x2069,
    ]) {
      expect(messageOf(employeeIdSchema, `E0${String.fromCharCode(c)}01`)).toBe(
        'v.identifier_chars',
      );
    }
    for (const hidden of ['\uFEFF', '\u2028', '\u3164', '\uFE0F', '\u{E0041}', '\uE000']) {
      expect(messageOf(employeeIdSchema, `E0${hidden}01`)).toBe('v.identifier_chars');
    }
    expect(messageOf(usernameSchema, 'ad\u200Bmin')).toBe('v.identifier_chars');
    expect(messageOf(codeSchema, 'AC\u202EME')).toBe('v.identifier_chars');
  });

  it('keeps what NFKC does not fold: another script is another staff number', () => {
    // Cyrillic Е (U+0415) is not Latin E: accepted as a staff number (the spec sets no charset),
    // refused as a username or code (ASCII only there).
    expect(employeeIdSchema.parse('\u04150001')).toBe('\u04150001');
    expect(employeeIdSchema.parse('员工0001')).toBe('员工0001');
    expect(messageOf(usernameSchema, '\u0430dmin')).toBe('v.username_chars');
    expect(messageOf(codeSchema, '\u0410CME')).toBe('v.code_chars');
  });
});
