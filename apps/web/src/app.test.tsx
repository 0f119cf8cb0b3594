import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryAppRouter } from '@/lib/router';
import { describe, expect, it } from 'vitest';
import { App } from '@/app';
import { showAlert } from '@/lib/alert-store';

describe('the app around the router (decision 0037)', () => {
  it('mounts the toaster at the first press and the alert dialog at the first alert', async () => {
    const router = createMemoryAppRouter([{ path: '/', Component: () => <p>Home</p> }]);
    render(<App router={router} />);
    expect(await screen.findByText('Home')).toBeInTheDocument();
    // Give lazy parts every chance to arrive: nothing asked for them yet.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('region', { name: /Notifications/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    fireEvent.pointerDown(screen.getByText('Home'));
    expect(await screen.findByRole('region', { name: /Notifications/ })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    act(() =>
      showAlert({ id: 'test', titleKey: 'alerts.server_error_title', messageKey: 'app.name' }),
    );
    expect(await screen.findByRole('alertdialog')).toBeInTheDocument();
  });
});
