import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    // A hang detector, not a measure: tests that start the server or a script as a process share
    // two cores with the web suites.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: PGlite instances are heavy, so keep files to a couple at a time.
    maxWorkers: 2,
    // Each worker imports the app once and runs its files one after another: every file makes its
    // own databases (test/databases.ts) and apps, and nothing here keeps state in a module between
    // files, so the isolation of a fresh module graph per file bought nothing but its price (the
    // imports were 180 of the suite's 860 CPU seconds; see docs/decisions/0027).
    isolate: false,
  },
});
