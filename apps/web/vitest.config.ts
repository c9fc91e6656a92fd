import { defineConfig } from 'vitest/config';

/** Unit tests of the web's pure modules (http client rules, helpers) and of views rendered to static markup; screens are covered by e2e. */
export default defineConfig({
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
