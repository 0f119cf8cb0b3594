import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: './test/jsdom-environment.ts',
      // Every file in a fresh vm context (its own jsdom and module instances) of one long-lived
      // worker, rather than a fresh process per file: the process start, jsdom's import and its
      // set-up were about a third of the CPU of the small files (decision 0045). The worker
      // holds more memory as it goes, so it is replaced past the limit.
      pool: 'vmForks',
      poolOptions: { vmForks: { memoryLimit: '1GB' } },
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['./src/test/setup.ts'],
      restoreMocks: true,
      unstubGlobals: true,
      // Above the 15 s that findBy* waits (src/test/setup.ts), so a missing element fails with
      // its own message.
      testTimeout: 40_000,
      // The set-up (src/test/setup.ts: the mock server, the languages) takes well under a second
      // alone; with the API's suites, the browsers and the cluster on two cores it once took over
      // the default 10 s and the whole file was skipped. A hang detector, not a measure.
      hookTimeout: 60_000,
    },
  }),
);
