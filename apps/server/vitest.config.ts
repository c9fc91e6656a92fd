import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // fails the test during which our code left a rejection unhandled (Vitest alone reports it after the run)
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    // generous: the CI machine may be running another suite beside this one (issue 15)
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
