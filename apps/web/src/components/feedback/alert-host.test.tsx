import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { confirmAlert, showAlert } from '@/lib/alert-store';
import { closeAllModals } from '@/lib/modals';
import { AlertHost } from './alert-host';

const question = {
  id: 'delete-employee',
  titleKey: 'alerts.server_error_title',
  messageKey: 'alerts.server_error_message',
  confirmKey: 'alerts.ok',
  cancelKey: 'alerts.cancel',
  destructive: true,
};

describe('the generic alert dialog', () => {
  it('resolves true on confirm, with the destructive style', async () => {
    render(<AlertHost />);
    let answer: Promise<boolean> | undefined;
    act(() => {
      answer = confirmAlert(question);
    });
    const confirm = await screen.findByRole('button', { name: 'OK' });
    expect(confirm.className).toContain('bg-destructive');
    await userEvent.click(confirm);
    await expect(answer).resolves.toBe(true);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('resolves false on cancel and on Escape', async () => {
    render(<AlertHost />);
    let first: Promise<boolean> | undefined;
    act(() => {
      first = confirmAlert(question);
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await expect(first).resolves.toBe(false);

    let second: Promise<boolean> | undefined;
    act(() => {
      second = confirmAlert(question);
    });
    await screen.findByRole('alertdialog');
    await userEvent.keyboard('{Escape}');
    await expect(second).resolves.toBe(false);
  });

  it('treats Escape on an alert with only OK as OK', async () => {
    render(<AlertHost />);
    let confirmed = false;
    act(() =>
      showAlert({
        id: 'info',
        titleKey: 'alerts.session_expired_title',
        messageKey: 'alerts.session_expired_message',
        onConfirm: () => {
          confirmed = true;
        },
      }),
    );
    await screen.findByRole('alertdialog', { name: 'Notification' });
    await userEvent.keyboard('{Escape}');
    expect(confirmed).toBe(true);
  });

  it('is closed, as not confirmed, with every other modal', async () => {
    render(<AlertHost />);
    let answer: Promise<boolean> | undefined;
    act(() => {
      answer = confirmAlert(question);
    });
    await screen.findByRole('alertdialog');
    act(() => closeAllModals());
    await expect(answer).resolves.toBe(false);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});
