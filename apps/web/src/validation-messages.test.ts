import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FieldValues } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createMerchantBodySchema,
  createTerminalBodySchema,
  isValidationMessageKey,
  loginBodySchema,
  loginFieldErrors,
  parseValidationMessage,
  updateMerchantBodySchema,
  updateTerminalBodySchema,
} from '@app/contract';
import { setPasswordFormSchema } from '@/features/auth/pages/set-password-page';
import {
  createCompanyAdminFormSchema,
  editCompanyAdminFormSchema,
  inviteCompanyAdminFormSchema,
} from '@/features/companies/components/company-admins-dialog';
import {
  createCompanyFormSchema,
  editCompanyFormSchema,
} from '@/features/companies/components/company-form-dialog';
import { issueTokensFormSchema } from '@/features/companies/components/issue-tokens-dialog';
import {
  createEmployeeFormSchema,
  updateEmployeeFormSchema,
} from '@/features/employees/components/employee-form-dialog';
import { readAmount } from '@/features/employees/components/reward-plan';
import { systemResetDateFormSchema } from '@/features/system/components/reset-date-form';
import {
  createFormSchemaFor,
  editFormSchema,
  inviteFormSchemaFor,
} from '@/features/users/components/user-form-dialog';
import { formResolver } from '@/lib/form-resolver';
import { translateMessage } from '@/lib/messages';
import { i18n, LANGUAGES } from '@/locales/i18n';

/**
 * Issue 19 item 5, decision 0026: every message a form shows comes from the `validation`
 * namespace, in English and in Chinese, whatever the user typed. Each form's schema is given a
 * valid value, then each field in turn every kind of wrong value; every message its resolver
 * answers must be a key (with its values) that both languages translate.
 */

const SRC = path.dirname(new URL(import.meta.url).pathname);

const ACCOUNT = { username: 'jane.doe', email: 'jane@example.com', status: 'active' };
const PASSWORD = { password: 'Passw0rd!', confirm_password: 'Passw0rd!' };

/** Every form that checks with a schema, with values it accepts. */
const FORMS: Record<string, { schema: z.ZodType; valid: FieldValues }> = {
  'company, create': {
    schema: createCompanyFormSchema,
    valid: {
      code: 'ACME',
      name: 'Acme',
      monthly_reset_day: '1',
      init_token: '0',
      employee_monthly_tokens: '0',
      status: 'active',
    },
  },
  'company, edit': {
    schema: editCompanyFormSchema,
    valid: {
      name: 'Acme',
      monthly_reset_day: '15',
      init_token: '100',
      init_token_next_month: '',
      employee_monthly_tokens: '0',
      status: 'inactive',
    },
  },
  'issue tokens': { schema: issueTokensFormSchema, valid: { amount: '500', note: '' } },
  'company admin, create': {
    schema: createCompanyAdminFormSchema,
    valid: { ...ACCOUNT, ...PASSWORD },
  },
  'company admin, invite': { schema: inviteCompanyAdminFormSchema, valid: ACCOUNT },
  'company admin, edit': {
    schema: editCompanyAdminFormSchema,
    valid: { ...ACCOUNT, password: '', confirm_password: '' },
  },
  'merchant, create': {
    schema: createMerchantBodySchema,
    valid: { code: 'SHOP', name: 'Shop', status: 'active' },
  },
  'merchant, edit': { schema: updateMerchantBodySchema, valid: { name: 'Shop', status: 'active' } },
  'terminal, create': {
    schema: createTerminalBodySchema,
    valid: { merchant_id: 1, code: 'T100', name: 'Till', status: 'active' },
  },
  'terminal, edit': { schema: updateTerminalBodySchema, valid: { name: 'Till', status: 'active' } },
  'user, create': {
    schema: createFormSchemaFor(false),
    valid: { ...ACCOUNT, ...PASSWORD, type: 'merchant_staff', merchant_id: 1 },
  },
  'user, invite': {
    schema: inviteFormSchemaFor(false),
    valid: { ...ACCOUNT, type: 'admin' },
  },
  'user, edit': { schema: editFormSchema, valid: { ...ACCOUNT, ...PASSWORD } },
  'employee, create': {
    schema: createEmployeeFormSchema,
    valid: { employee_id: 'E0001', name: '', email: '', status: 'active' },
  },
  'employee, edit': {
    schema: updateEmployeeFormSchema,
    valid: { employee_id: 'E0001', name: 'Ava', email: 'ava@example.com', status: 'active' },
  },
  'sign-in (once its schema is loaded)': {
    schema: loginBodySchema,
    valid: { username: 'admin', password: 'x' },
  },
  'set password': { schema: setPasswordFormSchema, valid: PASSWORD },
  'system reset date': { schema: systemResetDateFormSchema, valid: { reset_date: '2999-01-01' } },
};

/** What a person (or a stale form) can put in a field: missing, empty, short, long, wrong kind. */
const WRONG_VALUES: unknown[] = [
  undefined,
  null,
  '',
  '   ',
  'x',
  'ab',
  'x'.repeat(600),
  'bad value!',
  'not-an-email',
  'password',
  '-1',
  '0',
  '1.5',
  '99',
  '1e400',
  'abc',
  '2026-02-30',
  '15/02/2026',
  -1,
  0,
  1.5,
  2 ** 53,
  Number.NaN,
  true,
  {},
  [],
];

/** Every message of a resolver's errors, nested fields included. */
function messagesIn(errors: unknown): string[] {
  if (typeof errors !== 'object' || errors === null) return [];
  const own = (errors as { message?: unknown }).message;
  return [
    ...(typeof own === 'string' ? [own] : []),
    ...Object.entries(errors)
      .filter(([key]) => key !== 'ref' && key !== 'message')
      .flatMap(([, value]) => messagesIn(value)),
  ];
}

async function formMessages(schema: z.ZodType, valid: FieldValues): Promise<Set<string>> {
  const resolve = formResolver<FieldValues>(schema);
  const options = { fields: {}, shouldUseNativeValidation: false } as never;
  const found = new Set<string>();
  const run = async (values: FieldValues) => {
    const { errors } = await resolve(values, undefined, options);
    for (const message of messagesIn(errors)) found.add(message);
  };
  await run(valid);
  await run({});
  for (const field of Object.keys(valid)) {
    for (const value of WRONG_VALUES) await run({ ...valid, [field]: value });
  }
  return found;
}

/** Why `message` is not a translated message of the `validation` namespace in both languages. */
function problemsOf(message: string): string[] {
  const parsed = parseValidationMessage(message);
  if (!parsed) return [`"${message}" is not a validation key`];
  const problems: string[] = [];
  const text = Object.fromEntries(
    LANGUAGES.map((lng) => [lng, translateMessage(message, i18n.getFixedT(lng))]),
  ) as Record<(typeof LANGUAGES)[number], string>;
  for (const lng of LANGUAGES) {
    if (!i18n.exists(parsed.key, { ns: 'validation', lng })) problems.push(`${lng}: no ${message}`);
    if (text[lng].trim() === '' || text[lng] === message) problems.push(`${lng}: ${message} empty`);
    if (text[lng].includes('{{')) problems.push(`${lng}: ${message} leaves "${text[lng]}"`);
  }
  if (!/[\u4e00-\u9fff]/.test(text.zh) || text.zh === text.en) {
    problems.push(`zh: ${message} reads "${text.zh}", not Chinese`);
  }
  return problems;
}

describe('validation messages in one voice, in both languages', () => {
  it.each(Object.entries(FORMS))(
    'the %s form answers every wrong value with a translated key',
    async (_, { schema, valid }) => {
      const messages = await formMessages(schema, valid);
      // The walk reaches the form's own rules, not only "missing".
      expect(messages.size).toBeGreaterThan(1);
      expect([...messages].flatMap(problemsOf)).toEqual([]);
    },
  );

  it('accepts each form’s valid values, so the walk starts from a form that passes', async () => {
    for (const [name, { schema, valid }] of Object.entries(FORMS)) {
      const { errors } = await formResolver<FieldValues>(schema)(valid, undefined, {
        fields: {},
        shouldUseNativeValidation: false,
      } as never);
      expect(errors, name).toEqual({});
    }
  });

  it('catches a raw zod message: the check itself fails without the error map', () => {
    const raw = z.string().max(5).safeParse('too long').error!.issues[0]!.message;
    expect(problemsOf(raw)).toEqual([`"${raw}" is not a validation key`]);
  });

  it('gives the sign-in form’s plain check and the reward amounts translated keys too', () => {
    const messages = [
      ...Object.values(loginFieldErrors({ username: ' ', password: '' })),
      ...Object.values(loginFieldErrors({ username: 'a'.repeat(300), password: 'p'.repeat(300) })),
      ...['', '0', '-5', '1.5', 'abc', '1e400', '99999999999999999'].flatMap((text) => {
        const read = readAmount(text);
        return 'error' in read ? [read.error] : [];
      }),
    ];
    expect(messages).toHaveLength(11);
    expect(messages.flatMap(problemsOf)).toEqual([]);
  });

  it('names only keys the catalogue has, wherever the web app names one', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((entry) => {
        const full = path.join(dir, entry);
        if (statSync(full).isDirectory()) return files(full);
        return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [full] : [];
      });
    const unknown = files(SRC).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/['"`](v\.[a-z_]+)['"`?]/g)]
        .map((match) => match[1]!)
        .filter((key) => !isValidationMessageKey(key))
        .map((key) => `${path.relative(SRC, file)}: ${key}`),
    );
    expect(unknown).toEqual([]);
  });
});
