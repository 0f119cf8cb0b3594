import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dashboard } from '@app/contract';
import { dashboardKeys } from '@/features/dashboard/api/get-dashboard';
import { selfInfoQueryKey } from '@/features/auth/api/self-info-key';
import { useAuthStore } from '@/lib/auth-store';
import { queryClient } from '@/lib/query-client';
import { loadQueryRuntime } from '@/lib/load-query-runtime';
import { clearQueryCache, seededData } from '@/lib/query-client-registry';
import { SERVER_QUERIES_ID, type ServerQueries } from '@/lib/server-queries';
import { buildUser } from '@/test/fixtures';
import { server } from '@/test/server';
import { dashboardLoader } from './dashboard-loader';

const dashboard = { month: '2026-01', view: 'all' } as Dashboard;

/** The script the API puts beside a dashboard it rendered (decision 0050). */
function serverQueries(state: ServerQueries | string) {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = SERVER_QUERIES_ID;
  script.textContent = typeof state === 'string' ? state : JSON.stringify(state);
  document.body.append(script);
}

const load = (url: string) =>
  dashboardLoader({
    request: new Request(url),
    url: new URL(url),
    pattern: '/dashboard',
    params: {},
    context: undefined,
  });

// The loader's requests leave at once (their answers reach the cache once TanStack Query is there).
beforeEach(() => {
  server.use(
    http.get('/api/v1/dashboard', () => HttpResponse.json({ data: dashboard })),
    http.get('/api/v1/dashboard/summary', () => HttpResponse.json({ data: {} })),
  );
});

afterEach(() => {
  document.getElementById(SERVER_QUERIES_ID)?.remove();
  clearQueryCache();
  vi.restoreAllMocks();
});

describe('the dashboard route loader', () => {
  it('starts the page (and the cache) with the answers of the page the server drew, and fetches nothing', async () => {
    const stored = buildUser('admin', { user_id: 41, email: 'old@example.com' });
    const current = { ...stored, email: 'new@example.com' };
    useAuthStore.getState().signIn(stored);
    serverQueries({
      user_id: 41,
      queries: [
        { queryKey: selfInfoQueryKey, data: current },
        { queryKey: dashboardKeys.view({ month: '2026-01' }), data: dashboard },
      ],
    });
    const prefetch = vi.spyOn(queryClient, 'prefetchQuery').mockResolvedValue(undefined);
    load('http://localhost/dashboard?month=2026-01');
    // The page's late queries read them before TanStack Query has loaded (decision 0060)...
    expect(seededData(dashboardKeys.view({ month: '2026-01' }))?.data).toEqual(dashboard);
    // ...and the client's cache has them (here it is loaded already).
    expect(queryClient.getQueryData(dashboardKeys.view({ month: '2026-01' }))).toEqual(dashboard);
    await loadQueryRuntime();
    expect(prefetch).not.toHaveBeenCalled();
    // The session's user as the server has it now.
    expect(useAuthStore.getState().user?.email).toBe('new@example.com');
    // Read once: the next visit asks as before.
    expect(document.getElementById(SERVER_QUERIES_ID)).toBeNull();
    load('http://localhost/dashboard?month=2026-01');
    await vi.waitFor(() => expect(prefetch).toHaveBeenCalled());
  });

  it.each([
    [
      'another user',
      JSON.stringify({
        user_id: 99,
        queries: [{ queryKey: dashboardKeys.view({}), data: dashboard }],
      }),
    ],
    ['unreadable answers', '{"user_id": 41, "queries": '],
  ])('ignores the answers of %s and asks as before', async (_, state) => {
    useAuthStore.getState().signIn(buildUser('admin', { user_id: 41 }));
    serverQueries(state);
    const prefetch = vi.spyOn(queryClient, 'prefetchQuery').mockResolvedValue(undefined);
    load('http://localhost/dashboard');
    expect(queryClient.getQueryData(dashboardKeys.view({}))).toBeUndefined();
    expect(seededData(dashboardKeys.view({}))).toBeUndefined();
    // The request has left; its answer goes to the cache once TanStack Query is there.
    await vi.waitFor(() =>
      expect(prefetch).toHaveBeenCalledWith(
        expect.objectContaining({ queryKey: dashboardKeys.view({}) }),
      ),
    );
  });
});
