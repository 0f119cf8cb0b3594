import { act, render, screen, waitFor } from '@testing-library/react';
import { Link, type NonIndexRouteObject } from 'react-router';
import { createMemoryAppRouter } from '@/lib/router';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '@/app';
import { routes } from '@/routes';

describe('the navigation progress bar', () => {
  it('shows while the next route is on its way, and goes when it has arrived', async () => {
    let arrive: () => void = () => undefined;
    const pending = new Promise<void>((resolve) => (arrive = resolve));
    const router = createMemoryAppRouter(
      [
        {
          ...(routes[0] as NonIndexRouteObject),
          children: [
            { path: '/here', Component: () => <Link to="/there">Go</Link> },
            {
              path: '/there',
              lazy: async () => {
                await pending;
                return { Component: () => <p>Arrived</p> };
              },
            },
          ],
        },
      ],
      ['/here'],
    );
    render(<App router={router} />);
    await userEvent.click(await screen.findByRole('link', { name: 'Go' }));
    expect(await screen.findByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
    await act(async () => arrive());
    expect(await screen.findByText('Arrived')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  });
});
