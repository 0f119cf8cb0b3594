import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AlertHost } from '@/components/feedback/alert-host';
import { buildUser } from '@/test/fixtures';
import { server } from '@/test/server';
import { useAlertStore } from './alert-store';
import { transport } from './transport';
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
    await transport.post(
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
    expect(seen!.headers.get('accept')).toBe('application/json');
  });

  it("sends a preloadable GET with a preload's headers: no Accept, no XSRF token (decision 0044)", async () => {
    document.cookie = 'XSRF-TOKEN=token-123; path=/';
    const seen: Request[] = [];
    server.use(
      http.get('/api/v1/dashboard', ({ request }) => {
        seen.push(request);
        return HttpResponse.json({ data: { ok: true } });
      }),
    );
    const answer = await transport.get('/api/v1/dashboard', {
      params: { month: '2026-10' },
      preloadable: true,
    });
    expect(answer.data).toEqual({ data: { ok: true } });
    await transport.get('/api/v1/dashboard');
    expect(seen.map((request) => new URL(request.url).search)).toEqual(['?month=2026-10', '']);
    expect(seen[0]!.headers.get('x-xsrf-token')).toBeNull();
    expect(seen[0]!.headers.get('accept')).not.toBe('application/json');
    // Every other call keeps them.
    expect(seen[1]!.headers.get('x-xsrf-token')).toBe('token-123');
    expect(seen[1]!.headers.get('accept')).toBe('application/json');
  });

  it('leaves null and undefined out of the query and adds to a query already in the URL', async () => {
    let seen: URL | undefined;
    server.use(
      http.get('/api/v1/things', ({ request }) => {
        seen = new URL(request.url);
        return HttpResponse.json({ data: [] });
      }),
    );
    await transport.get('/api/v1/things?scope=company', {
      params: {
        page: 2,
        name: 'A & B',
        gone: undefined,
        none: null,
        ok: true,
        at: new Date(Date.UTC(2026, 0, 31, 14, 5)),
      },
    });
    expect([...seen!.searchParams]).toEqual([
      ['scope', 'company'],
      ['page', '2'],
      ['name', 'A & B'],
      ['ok', 'true'],
      ['at', '2026-01-31T14:05:00.000Z'],
    ]);
  });

  it('never sends the XSRF token to another origin', async () => {
    document.cookie = 'XSRF-TOKEN=token-123; path=/';
    let seen: Request | undefined;
    server.use(
      http.post('https://elsewhere.example/hook', ({ request }) => {
        seen = request;
        return HttpResponse.json({ ok: true });
      }),
    );
    await transport.post('https://elsewhere.example/hook', {});
    expect(seen!.headers.get('x-xsrf-token')).toBeNull();
  });

  it('sends a call without a body without a content type, and FormData as multipart', async () => {
    const seen: Request[] = [];
    server.use(
      http.post('/api/v1/things', ({ request }) => {
        seen.push(request.clone());
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const none = await transport.post('/api/v1/things');
    const form = new FormData();
    form.append('file', new File(['employee_id\nE1\n'], 'staff.csv', { type: 'text/csv' }));
    await transport.post('/api/v1/things', form);

    expect(none.data).toBe('');
    expect(seen[0]!.headers.get('content-type')).toBeNull();
    expect(seen[1]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const received = await seen[1]!.formData();
    expect(await (received.get('file') as File).text()).toBe('employee_id\nE1\n');
  });

  it('answers the body as text when asked, and JSON otherwise', async () => {
    server.use(
      http.get('/api/v1/export', () =>
        HttpResponse.text('a,b\n1,2\n', {
          headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment' },
        }),
      ),
      http.get('/api/v1/things', () => HttpResponse.json({ data: { id: 1 } })),
    );
    const csv = await transport.get<string>('/api/v1/export', { responseType: 'text' });
    expect(csv.data).toBe('a,b\n1,2\n');
    expect(csv.headers.get('content-disposition')).toBe('attachment');
    expect((await transport.get('/api/v1/things')).data).toEqual({ data: { id: 1 } });
  });
});

describe('the session-expired interceptor', () => {
  it('shows one Notification alert for parallel 401s and fails each call with 401 Unauthorized', async () => {
    server.use(answer(401, { statusCode: 401, error: 'Unauthorized', message: 'No session' }));
    const errors = await Promise.all([
      failure(transport.get('/api/v1/companies')),
      failure(transport.get('/api/v1/merchants')),
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

    await failure(transport.get('/api/v1/companies'));
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
      const error = await failure(transport.post(path, {}));
      expect(error.status).toBe(401);
      expect(error.code).toBe('INVALID_CREDENTIALS');
      expect(error.alerted).toBe(false);
      expect(useAlertStore.getState().queue).toEqual([]);
    },
  );

  it('signs out without the alert when the call asked for a quiet 401', async () => {
    useAuthStore.getState().signIn(buildUser('admin'));
    server.use(answer(401, { statusCode: 401, error: 'Unauthorized', message: 'No session' }));
    const error = await failure(
      transport.get('/api/v1/iam/self-info', { quietUnauthorized: true }),
    );
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
      const error = await failure(transport.get('/api/v1/companies'));
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
    const error = await failure(transport.get('/api/v1/companies'));
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
    const error = await failure(transport.post('/api/v1/companies', {}));
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
    const error = await failure(transport.get('/api/v1/companies/9'));
    expect(error.message).toBe('Not Found');
    expect(error.code).toBeUndefined();
  });

  it('rejects a failure without a response with its code, name and message', async () => {
    server.use(http.get('/api/v1/companies', () => HttpResponse.error()));
    const error = await failure(transport.get('/api/v1/companies'));
    expect(error.kind).toBe('network');
    expect(error.status).toBeUndefined();
    expect(error.code).toBe('ERR_NETWORK');
    expect(error.name).toBe('NetworkError');
    expect(error.message).toBe('Network Error');
  });

  it('rejects an aborted call as canceled', async () => {
    server.use(http.get('/api/v1/companies', () => HttpResponse.json({ data: [] })));
    const controller = new AbortController();
    controller.abort();
    const error = await failure(transport.get('/api/v1/companies', { signal: controller.signal }));
    expect(error).toMatchObject({ kind: 'network', code: 'ERR_CANCELED', message: 'canceled' });
  });

  it('keeps the text of a failure that is not JSON as its data', async () => {
    server.use(
      http.get('/api/v1/companies', () => HttpResponse.text('Bad gateway', { status: 504 })),
    );
    const error = await failure(transport.get('/api/v1/companies'));
    expect(error).toMatchObject({ kind: 'response', status: 504, data: 'Bad gateway' });
  });

  it('parses the JSON envelope of a failed text call', async () => {
    server.use(
      http.get('/api/v1/export', () =>
        HttpResponse.json(
          {
            statusCode: 422,
            error: 'Unprocessable Entity',
            message: 'big',
            code: 'EXPORT_TOO_LARGE',
          },
          { status: 422 },
        ),
      ),
    );
    const error = await failure(transport.get('/api/v1/export', { responseType: 'text' }));
    expect(error.code).toBe('EXPORT_TOO_LARGE');
  });

  it('fails a call it cannot even send with Unknown error', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const error = await failure(transport.post('/api/v1/companies', circular));
    expect(error.kind).toBe('unknown');
    expect(error.message).toBe('Unknown error');
  });

  it('turns anything that is not an HTTP failure into Unknown error', () => {
    const error = toApiError(new TypeError('x is not a function'));
    expect(error.kind).toBe('unknown');
    expect(error.message).toBe('Unknown error');
  });
});
