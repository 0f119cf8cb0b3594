import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { signedIn } from '@/test/api';
import { buildUser } from '@/test/fixtures';
import { server } from '@/test/server';
import { exitFor, TILL_EXITS, tillWindow, watchTillSession } from './till-session';

describe("the till's session", () => {
  it('is for the merchant roles; anyone else goes where the back office would send them', () => {
    expect(exitFor(null)).toBe('/login?from=%2Ftill');
    for (const role of ['merchant_staff', 'merchant_supervisor', 'merchant_admin'] as const) {
      expect(exitFor(buildUser(role))).toBeNull();
    }
    expect(exitFor(buildUser('company_employee'))).toBe('/error/403');
    expect(exitFor(buildUser('admin'))).toBe('/error/403');
    expect(exitFor(buildUser('merchant_admin', { mfa_enrolment_required: true }))).toBe(
      '/two-factor',
    );
  });

  it('sends a visitor without a session to sign in, back to the till after', () => {
    const leave = vi.spyOn(tillWindow, 'leave').mockImplementation(() => {});
    expect(watchTillSession()).toBe(false);
    expect(leave).toHaveBeenCalledWith(TILL_EXITS.signIn);
  });

  it('keeps a merchant on the till, and sends them to sign in once the session has ended', async () => {
    const leave = vi.spyOn(tillWindow, 'leave').mockImplementation(() => {});
    const user = signedIn('merchant_staff');
    useAuthStore.setState({ user, isAuthenticated: true });
    expect(watchTillSession()).toBe(true);
    await vi.waitFor(() => expect(useAuthStore.getState().user).toEqual(user));
    expect(leave).not.toHaveBeenCalled();
    useAuthStore.getState().signOut();
    expect(leave).toHaveBeenCalledWith('/login?from=%2Ftill');
  });

  it('follows the session probe: a 401 signs out to sign-in, no answer keeps the till', async () => {
    const leave = vi.spyOn(tillWindow, 'leave').mockImplementation(() => {});
    useAuthStore.setState({ user: buildUser('merchant_staff'), isAuthenticated: true });
    server.use(http.get('/api/v1/iam/self-info', () => HttpResponse.error()));
    expect(watchTillSession()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(leave).not.toHaveBeenCalled();
    expect(useAuthStore.getState().isAuthenticated).toBe(true);

    server.use(
      http.get('/api/v1/iam/self-info', () =>
        HttpResponse.json({ statusCode: 401, code: 'UNAUTHORIZED' }, { status: 401 }),
      ),
    );
    expect(watchTillSession()).toBe(true);
    await vi.waitFor(() => expect(leave).toHaveBeenCalledWith('/login?from=%2Ftill'));
  });
});
