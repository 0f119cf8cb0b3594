import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * The network of component tests: each test declares the answers it needs (`server.use`). The one
 * default is the sidebar's pending-approval count, which every signed-in shell asks for (decision
 * 0039): nothing pending, unless a test says otherwise.
 */
export const server = setupServer(
  http.get('/api/v1/approvals', () => HttpResponse.json({ data: [], total: 0 })),
);
