import { setupServer } from 'msw/node';

/** The network of component tests: each test declares the answers it needs (`server.use`). */
export const server = setupServer();
