import { render, screen, waitFor } from '@testing-library/react';
import type { NonIndexRouteObject, RouteObject } from 'react-router';
import { createMemoryAppRouter } from '@/lib/router';
import { describe, expect, it, vi } from 'vitest';
import { App } from '@/app';
import { browser } from '@/lib/browser';
import { CHUNK_LOAD_COUNTER_KEY } from '@/lib/chunk-load';
import { routes } from './index';

/** The app's root route (error element, chunk counter) around test-only children. */
const rootWith = (children: RouteObject[]): RouteObject[] => [
  { ...(routes[0] as NonIndexRouteObject), children },
];

describe('the root route', () => {
  it('shows the updated-application message when a route chunk fails to load', async () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    localStorage.setItem(CHUNK_LOAD_COUNTER_KEY, '1');
    const router = createMemoryAppRouter(
      rootWith([
        {
          path: '/broken',
          lazy: () =>
            Promise.reject(new TypeError('Failed to fetch dynamically imported module: /b.js')),
        },
      ]),
      ['/broken'],
    );
    render(<App router={router} />);
    expect(
      await screen.findByText(
        'This application has been updated, please refresh your browser to see the latest content.',
      ),
    ).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
    expect(localStorage.getItem(CHUNK_LOAD_COUNTER_KEY)).toBe('1');
  });

  it('resets the chunk-load counter once a page has loaded', async () => {
    localStorage.setItem(CHUNK_LOAD_COUNTER_KEY, '1');
    const router = createMemoryAppRouter(
      rootWith([{ path: '/fine', lazy: async () => ({ Component: () => <p>Loaded</p> }) }]),
      ['/fine'],
    );
    render(<App router={router} />);
    expect(await screen.findByText('Loaded')).toBeInTheDocument();
    // The reset runs in a passive effect, which may flush just after the page's DOM appears.
    await waitFor(() => expect(localStorage.getItem(CHUNK_LOAD_COUNTER_KEY)).toBe('0'));
  });
});
