import fs from 'node:fs';
import { defineConfig } from 'vitest/config';
import { precompiledSpecValidators } from './packages/contracts/scripts/precompiled-validators';

/**
 * The root Vitest configuration behind `npm test` (scripts/test.mjs runs its projects pass by pass):
 *  - apps/server (its own vitest.config.ts) and apps/web when it has one;
 *  - contracts: packages' pure rules; contracts-precompiled: the pipeline spec's tests again on the validators the
 *    web's build compiles ahead (no eval), which must give the same errors; test-support: the local stand-ins;
 *  - e2e: the real stack in headless Chromium, one file at a time, long timeouts.
 */
export default defineConfig({
  test: {
    projects: [
      'apps/server',
      ...(fs.existsSync('apps/web/vitest.config.ts') ? ['apps/web'] : []),
      {
        test: {
          name: 'contracts',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          exclude: ['**/*.precompiled.test.ts'],
        },
      },
      {
        plugins: [precompiledSpecValidators()],
        test: {
          name: 'contracts-precompiled',
          include: ['packages/contracts/src/pipeline-spec*.test.ts'],
        },
      },
      {
        test: {
          name: 'test-support',
          include: ['test-support/src/**/*.test.ts', 'test-support/test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          maxWorkers: 1,
          pool: 'forks',
        },
      },
    ],
  },
});
