import { defineConfig } from 'vitest/config';

/** `npm run test:node-versions`: `npm start` under the oldest Node.js versions it supports. */
export default defineConfig({
  test: {
    include: ['scripts/**/*.test.ts'],
    environment: 'node',
    // Hang detectors, not measures: a Node.js is downloaded once, a build shares two cores with the
    // other suites.
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
