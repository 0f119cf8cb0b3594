import { defineConfig } from 'vitest/config';

/**
 * Browser journeys: real Chromium (playwright-core) against the real API serving the built app.
 *
 * Two lanes, two projects: `npm run test:e2e` runs them side by side as two Vitest processes
 * (`--project`), each with a server of its own (e2e/global-setup.ts: its own embedded database with
 * the demo programme) and its files one at a time. The journeys spend most of their time waiting
 * on the browser and the server, not on the CPU, so two lanes nearly halve the wall time for little
 * more work, and neither lane sees the other's writes (a sort compared before and after, a count, a
 * sign-out). The lanes are balanced by their duration on CI. Within one process (`vitest run -c
 * vitest.e2e.config.ts e2e/some.spec.ts`) the files run one at a time, as before.
 */
const SCREENS_LANE = [
  'e2e/screens.spec.ts',
  'e2e/shell.spec.ts',
  'e2e/access.spec.ts',
  'e2e/two-factor.spec.ts',
  'e2e/ledger-views.spec.ts',
];
const lane = (name: string, include: string[], exclude: string[] = []) => ({
  test: {
    name,
    include,
    exclude,
    environment: 'node',
    globalSetup: ['./e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // One browser per file; journeys sign in and out, so a process runs its files one at a time.
    fileParallelism: false,
    projects: [
      lane('e2e-screens', SCREENS_LANE),
      // Every other journey, a new file included.
      lane('e2e-journeys', ['e2e/**/*.spec.ts'], SCREENS_LANE),
    ],
  },
});
