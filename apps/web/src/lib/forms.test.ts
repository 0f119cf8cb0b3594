import { describe, expect, it } from 'vitest';
import { initialTokenSchema, resetDaySchema } from '@app/contract';
import { ApiError } from './api-error';
import { applyServerErrors, nullableNumberField, numberField, numberText } from './forms';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

describe('number fields', () => {
  const resetDay = numberField(resetDaySchema);

  it('turns the text of a box into the number the contract checks', () => {
    expect(resetDay.parse(' 15 ')).toBe(15);
    expect(messageOf(resetDay.safeParse(''))).toBe('v.reset_day_required');
    expect(messageOf(resetDay.safeParse('32'))).toBe('v.reset_day_range');
    expect(messageOf(resetDay.safeParse('1.5'))).toBe('v.integer');
  });

  it('reads an empty box as null where a value may be cleared', () => {
    const nextMonth = nullableNumberField(initialTokenSchema);
    expect(nextMonth.parse('')).toBeNull();
    expect(nextMonth.parse('0')).toBe(0);
    expect(messageOf(nextMonth.safeParse('-1'))).toBe('v.initial_token_min');
  });

  it('shows numbers back as text', () => {
    expect(numberText(0)).toBe('0');
    expect(numberText(null)).toBe('');
  });
});

describe('applyServerErrors', () => {
  type Form = Parameters<typeof applyServerErrors>[0];
  function fakeForm(values: Record<string, unknown>) {
    const errors: Record<string, string> = {};
    const form = {
      getValues: () => values,
      setError: (name: string, error: { message?: string }) => {
        errors[name] = error.message ?? '';
      },
    } as unknown as Form;
    return Object.assign(form, { errors });
  }
  const failure = (code: string, metadata?: Record<string, unknown>) =>
    new ApiError({ kind: 'response', status: 409, message: code, code, metadata, data: { code } });

  it('puts metadata messages on the fields the form has, translated', () => {
    const form = fakeForm({ username: '', email: '' });
    expect(
      applyServerErrors(
        form,
        failure('BODY_INVALID', { username: 'v.username_length', unknown: 'x' }),
      ),
    ).toBe(true);
    expect(form.errors).toEqual({ username: 'Username must be 3 to 20 characters' });
  });

  it('puts a known code on the field it names, and ignores other failures', () => {
    const form = fakeForm({ username: '', email: '' });
    applyServerErrors(form, failure('EMAIL_EXISTS'), { EMAIL_EXISTS: 'email' });
    expect(form.errors).toEqual({ email: 'Email is already registered' });
    expect(applyServerErrors(fakeForm({}), failure('SERVER_ERROR'), {})).toBe(false);
    expect(applyServerErrors(fakeForm({}), new Error('boom'))).toBe(false);
  });
});
