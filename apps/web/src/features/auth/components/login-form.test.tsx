import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '@/lib/query-client';
import { server } from '@/test/server';
import { LoginForm } from './login-form';

// The schema's chunk cannot be fetched (offline, or a deployment removed it).
vi.mock('./login-resolver', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

describe('the login form without its schema', () => {
  it('leaves the check to the server', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/v1/iam/login', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          {
            statusCode: 400,
            error: 'Bad Request',
            message: 'body invalid',
            code: 'BODY_INVALID',
            metadata: { username: 'v.username_required' },
          },
          { status: 400 },
        );
      }),
    );
    render(
      <QueryClientProvider client={queryClient}>
        <LoginForm onSuccess={vi.fn()} />
      </QueryClientProvider>,
    );
    // With the schema, empty fields never leave the form (see the login page's tests).
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(bodies).toEqual([{ username: '', password: '' }]));
  });
});
