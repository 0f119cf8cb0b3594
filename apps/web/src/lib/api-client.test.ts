import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { answer } from '@/test/api';
import { server } from '@/test/server';
import { api, pathOf } from './api-client';
import type { ApiError } from './api-error';

const failure = (promise: Promise<unknown>): Promise<ApiError> =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as ApiError,
  );

describe('the typed API client', () => {
  it('puts each path value in its segment, encoded, and the query after it', async () => {
    const calls = answer('get', '/api/v1/settlements/:merchant/:period', { data: {} });
    await api.get('/api/v1/settlements/{merchant_id}/{period_start}', {
      params: { path: { merchant_id: 4, period_start: '2026-01-01' }, query: { page: 2 } },
    });
    expect(calls[0]!.url.pathname).toBe('/api/v1/settlements/4/2026-01-01');
    expect(calls[0]!.url.search).toBe('?page=2');
    expect(pathOf('/api/v1/employees/{id}', { id: 'a/b c' })).toBe('/api/v1/employees/a%2Fb%20c');
  });

  it('sends the header parameters as headers and the body as JSON', async () => {
    const calls = answer('post', '/api/v1/tokens/topup-token', { data: { company_id: 1 } });
    const response = await api.post('/api/v1/tokens/topup-token', {
      params: { header: { 'idempotency-key': 'key-1' } },
      body: { company_id: 1, amount: 5 },
    });
    expect(response.status).toBe(200);
    expect(calls[0]!.headers.get('idempotency-key')).toBe('key-1');
    expect(calls[0]!.headers.get('content-type')).toContain('application/json');
    expect(calls[0]!.body).toEqual({ company_id: 1, amount: 5 });
  });

  it('leaves out a body the operation may go without, and sends FormData as multipart', async () => {
    const seen: Request[] = [];
    server.use(
      http.post('/api/v1/*', ({ request }) => {
        seen.push(request.clone());
        return HttpResponse.json({ data: {} });
      }),
    );
    await api.post('/api/v1/approvals/{id}/approve', {
      params: { path: { id: 3 }, header: { 'idempotency-key': 'key-2' } },
    });
    const form = new FormData();
    form.append('file', new File(['employee_id\n'], 'staff.csv', { type: 'text/csv' }));
    await api.post('/api/v1/employees/import', { body: form });

    expect(new URL(seen[0]!.url).pathname).toBe('/api/v1/approvals/3/approve');
    expect(seen[0]!.headers.get('content-type')).toBeNull();
    expect(await seen[0]!.text()).toBe('');
    expect(seen[1]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('fails through the transport with its ApiError', async () => {
    server.use(
      http.get('/api/v1/companies/:id', () =>
        HttpResponse.json(
          { statusCode: 404, error: 'Not Found', code: 'NOT_FOUND' },
          { status: 404 },
        ),
      ),
    );
    const error = await failure(api.get('/api/v1/companies/{id}', { params: { path: { id: 9 } } }));
    expect(error).toMatchObject({ kind: 'response', status: 404, code: 'NOT_FOUND' });
  });

  it('fails a call without a path value with Unknown error, before sending it', async () => {
    const calls = answer('get', '/api/v1/companies/:id', { data: {} });
    const error = await failure(
      api.get('/api/v1/companies/{id}', { params: { path: {} } } as never),
    );
    expect(error.kind).toBe('unknown');
    expect(calls).toEqual([]);
  });
});

// Compiled, never run: the document decides what each call takes and answers.
async function typedByTheDocument() {
  const employee = await api.get('/api/v1/employees/{id}', { params: { path: { id: 3 } } });
  const name: string | null = employee.data.data.name;
  const csv = await api.get('/api/v1/exports/transactions', { responseType: 'text' });
  const text: string = csv.data;
  // @ts-expect-error a path the API does not have
  await api.get('/api/v1/nothing');
  // @ts-expect-error the path's id is missing
  await api.get('/api/v1/employees/{id}');
  // @ts-expect-error a money request without its Idempotency-Key
  await api.post('/api/v1/tokens/topup-token', { body: { company_id: 1, amount: 2 } });
  // @ts-expect-error a body the operation does not take
  await api.put('/api/v1/sys/reset-date', { body: { day: 'soon' } });
  return [name, text];
}
void typedByTheDocument;
