import { defineConfig } from 'vitest/config';

/** Browser journeys: real Chromium (playwright-core) against the real API serving the built app. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.spec.ts'],
    environment: 'node',
    globalSetup: ['./e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One server, one browser per file; journeys sign in and out, so they run one at a time.
    fileParallelism: false,
  },
});
