import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: './test/jsdom-environment.ts',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['./src/test/setup.ts'],
      restoreMocks: true,
      unstubGlobals: true,
      // Above the 15 s that findBy* waits (src/test/setup.ts), so a missing element fails with
      // its own message.
      testTimeout: 40_000,
    },
  }),
);
