import { defineConfig } from 'vitest/config';

/** Unit tests of the web's pure modules (http client rules, helpers); screens are covered by e2e. */
export default defineConfig({
  test: {
    name: 'web',
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
