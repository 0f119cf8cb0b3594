import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { toast } from 'sonner';
import { Toaster } from '@/components/feedback/toaster';
import { i18n } from '@/locales/i18n';
import { ApiError } from './api-error';
import { errorMessageLines, showErrorToast } from './error-display';

const responseError = (body: Record<string, unknown> | string | null) =>
  new ApiError({
    kind: 'response',
    status: 400,
    message:
      typeof body === 'object' && body && typeof body.message === 'string' ? body.message : '',
    code: typeof body === 'object' && body && typeof body.code === 'string' ? body.code : undefined,
    metadata:
      typeof body === 'object' && body && typeof body.metadata === 'object'
        ? (body.metadata as Record<string, unknown>)
        : undefined,
    data: body,
  });

describe('the error display rule', () => {
  it('shows the generic message when the response has no data', () => {
    expect(errorMessageLines(responseError(null))).toEqual([
      'An unexpected error occurred. Please try again!',
    ]);
    expect(errorMessageLines(responseError(''))).toEqual([
      'An unexpected error occurred. Please try again!',
    ]);
    expect(
      errorMessageLines(
        new ApiError({ kind: 'network', message: 'Network Error', code: 'ERR_NETWORK' }),
      ),
    ).toEqual(['An unexpected error occurred. Please try again!']);
    expect(errorMessageLines(new Error('boom'))).toEqual([
      'An unexpected error occurred. Please try again!',
    ]);
  });

  it('shows one field: message line per metadata entry, translating v.* keys', () => {
    const error = responseError({
      message: 'body invalid',
      code: 'BODY_INVALID',
      metadata: { username: 'v.username_required', code: 'must be unique' },
    });
    expect(errorMessageLines(error)).toEqual([
      'username: Enter a username',
      'code: must be unique',
    ]);
  });

  it('shows the catalogue message of a code', () => {
    expect(errorMessageLines(responseError({ message: 'locked', code: 'ACCOUNT_LOCKED' }))).toEqual(
      ['Your account is locked. Please contact support.'],
    );
  });

  it('shows the catalogue message in the current language', async () => {
    await i18n.changeLanguage('zh');
    expect(errorMessageLines(responseError({ message: 'x', code: 'USER_INACTIVE' }))).toEqual([
      '该用户已停用。',
    ]);
    expect(
      errorMessageLines(responseError({ message: 'x', metadata: { email: 'v.email_invalid' } })),
    ).toEqual(['email: 请输入有效的邮箱地址']);
  });

  it('shows the server message capitalised when the code is not in the catalogue', () => {
    expect(
      errorMessageLines(responseError({ message: 'quota reached', code: 'SOMETHING_NEW' })),
    ).toEqual(['Quota reached']);
    expect(errorMessageLines(responseError({ message: 'quota reached' }))).toEqual([
      'Quota reached',
    ]);
  });

  it('falls back to the generic message when there is no message either', () => {
    expect(errorMessageLines(responseError({ unrelated: true }))).toEqual([
      'An unexpected error occurred. Please try again!',
    ]);
  });
});

describe('error toasts', () => {
  afterEach(() => {
    act(() => {
      toast.dismiss();
    });
  });

  it('shows the message in a toast at the top centre with a close button', async () => {
    render(<Toaster />);
    act(() => showErrorToast(responseError({ message: 'x', code: 'DATA_EXISTS' })));
    expect(await screen.findByText('This data already exists.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    const toaster = document.querySelector('[data-sonner-toaster]');
    expect(toaster).toHaveAttribute('data-y-position', 'top');
    expect(toaster).toHaveAttribute('data-x-position', 'center');
    expect(toaster).toHaveStyle({ '--gap': '14px', '--width': '356px' });
  });

  it('shows a toast asked for before the toaster has arrived, once it has', async () => {
    // The app fetches the toaster after its first render (issue 6).
    act(() => showErrorToast(responseError({ message: 'x', code: 'DATA_EXISTS' })));
    await act(() => import('sonner'));
    render(<Toaster />);
    expect(await screen.findByText('This data already exists.')).toBeInTheDocument();
  });

  it('stays silent for a failure a global alert already reported', async () => {
    render(<Toaster />);
    const alerted = new ApiError({
      kind: 'response',
      status: 500,
      message: 'boom',
      data: { message: 'boom' },
      alerted: true,
    });
    act(() => {
      showErrorToast(alerted);
      showErrorToast(responseError({ message: 'x', code: 'DATA_EXISTS' }));
    });
    // Toasts render in order: once the second shows, the first would have too.
    expect(await screen.findByText('This data already exists.')).toBeInTheDocument();
    expect(screen.queryByText('Boom')).not.toBeInTheDocument();
  });
});
