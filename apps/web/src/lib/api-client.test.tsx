import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AlertHost } from '@/components/feedback/alert-host';
import { buildUser } from '@/test/fixtures';
import { server } from '@/test/server';
import { useAlertStore } from './alert-store';
import { api } from './api-client';
import { ApiError, toApiError } from './api-error';
import { useAuthStore } from './auth-store';
import { registerModal } from './modals';
import { queryClient } from './query-client';

const failure = (promise: Promise<unknown>): Promise<ApiError> =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as ApiError,
  );

const answer = (status: number, body?: unknown) =>
  http.all('/api/v1/*', () =>
    body === undefined ? new HttpResponse(null, { status }) : HttpResponse.json(body, { status }),
  );

describe('the HTTP client', () => {
  it('sends JSON to the same origin, arrays as repeated keys, and echoes the XSRF cookie', async () => {
    document.cookie = 'XSRF-TOKEN=token-123; path=/';
    let seen: Request | undefined;
    server.use(
      http.post('/api/v1/things', ({ request }) => {
        seen = request;
        return HttpResponse.json({ data: { ok: true } });
      }),
    );
    await api.post(
      '/api/v1/things',
      { a: 1 },
      { params: { event: ['order_purchased', 'order_refunded'] } },
    );
    expect(seen).toBeDefined();
    const url = new URL(seen!.url);
    expect(url.origin).toBe(window.location.origin);
    expect(url.search).toBe('?event=order_purchased&event=order_refunded');
    expect(seen!.headers.get('content-type')).toContain('application/json');
    expect(seen!.headers.get('x-xsrf-token')).toBe('token-123');
    expect(api.defaults.timeout).toBe(0);
  });
});

describe('the session-expired interceptor', () => {
  it('shows one Notification alert for parallel 401s and fails each call with 401 Unauthorized', async () => {
    server.use(answer(401, { statusCode: 401, error: 'Unauthorized', message: 'No session' }));
    const errors = await Promise.all([
      failure(api.get('/api/v1/companies')),
      failure(api.get('/api/v1/merchants')),
    ]);
    for (const error of errors) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(401);
      expect(error.error).toBe('Unauthorized');
      expect(error.alerted).toBe(true);
    }
    expect(useAlertStore.getState().queue.map((alert) => alert.id)).toEqual(['session-expired']);
  });

  it('on OK clears both storages, logs out, empties the query cache and closes the modals', async () => {
    const user = userEvent.setup();
    useAuthStore.getState().signIn(buildUser('admin'));
    localStorage.setItem('something', '1');
    sessionStorage.setItem('something', '1');
    queryClient.setQueryData(['cached'], 42);
    let modalClosed = false;
    const unregister = registerModal(() => {
      modalClosed = true;
    });
    server.use(answer(401, { statusCode: 401, error: 'Unauthorized', message: 'No session' }));
    render(<AlertHost />);

    await failure(api.get('/api/v1/companies'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Notification' });
    expect(within(dialog).getByText('Session Expired. Please login again.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));

    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    expect(useAuthStore.getState().user).toBeNull();
    expect(sessionStorage.getItem('something')).toBeNull();
    expect(localStorage.getItem('something')).toBeNull();
    expect(queryClient.getQueryData(['cached'])).toBeUndefined();
    expect(modalClosed).toBe(true);
    unregister();
  });

  it.each(['/api/v1/iam/login', '/api/v1/iam/logout'])(
    'lets a 401 from %s through without the alert',
    async (path) => {
      server.use(
        http.post(path, () =>
          HttpResponse.json(
            {
              statusCode: 401,
              error: 'Unauthorized',
              message: 'bad credentials',
              code: 'INVALID_CREDENTIALS',
            },
            { status: 401 },
          ),
        ),
      );
      const error = await failure(api.post(path, {}));
      expect(error.status).toBe(401);
      expect(error.code).toBe('INVALID_CREDENTIALS');
      expect(error.alerted).toBe(false);
      expect(useAlertStore.getState().queue).toEqual([]);
    },
  );

  it('signs out without the alert when the call asked for a quiet 401', async () => {
    useAuthStore.getState().signIn(buildUser('admin'));
    server.use(answer(401, { statusCode: 401, error: 'Unauthorized', message: 'No session' }));
    const error = await failure(api.get('/api/v1/iam/self-info', { quietUnauthorized: true }));
    expect(error.status).toBe(401);
    expect(useAlertStore.getState().queue).toEqual([]);
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
  });
});

describe('the server-error interceptor', () => {
  it.each([500, 502, 503])(
    'shows the Internal Server Error alert on %i and still fails',
    async (status) => {
      server.use(answer(status, { statusCode: status, error: 'Server Error', message: 'boom' }));
      render(<AlertHost />);
      const error = await failure(api.get('/api/v1/companies'));
      expect(error.status).toBe(status);
      expect(error.alerted).toBe(true);
      const dialog = await screen.findByRole('alertdialog', { name: 'Internal Server Error' });
      expect(
        within(dialog).getByText('Please contact administrator for details.'),
      ).toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'OK' })).toBeInTheDocument();
    },
  );

  it('does not alert on other failures', async () => {
    server.use(answer(504, { statusCode: 504, error: 'Gateway Timeout', message: 'slow' }));
    const error = await failure(api.get('/api/v1/companies'));
    expect(error.status).toBe(504);
    expect(useAlertStore.getState().queue).toEqual([]);
  });
});

describe('error shaping', () => {
  it('rejects a server error with its status, error, message, code, metadata and errors', async () => {
    server.use(
      answer(400, {
        statusCode: 400,
        error: 'Bad Request',
        message: 'body invalid',
        code: 'BODY_INVALID',
        metadata: { name: 'v.name_required' },
        errors: [{ path: 'name' }],
      }),
    );
    const error = await failure(api.post('/api/v1/companies', {}));
    expect(error).toMatchObject({
      kind: 'response',
      status: 400,
      error: 'Bad Request',
      message: 'body invalid',
      code: 'BODY_INVALID',
      metadata: { name: 'v.name_required' },
      errors: [{ path: 'name' }],
    });
  });

  it('falls back to the error when the body has no message', async () => {
    server.use(answer(404, { statusCode: 404, error: 'Not Found' }));
    const error = await failure(api.get('/api/v1/companies/9'));
    expect(error.message).toBe('Not Found');
    expect(error.code).toBeUndefined();
  });

  it('rejects a failure without a response with its code, name and message', async () => {
    server.use(http.get('/api/v1/companies', () => HttpResponse.error()));
    const error = await failure(api.get('/api/v1/companies'));
    expect(error.kind).toBe('network');
    expect(error.status).toBeUndefined();
    expect(error.code).toBe('ERR_NETWORK');
    expect(error.name).toBe('AxiosError');
    expect(error.message).toBe('Network Error');
  });

  it('turns anything that is not an HTTP failure into Unknown error', () => {
    const error = toApiError(new TypeError('x is not a function'));
    expect(error.kind).toBe('unknown');
    expect(error.message).toBe('Unknown error');
  });
});
