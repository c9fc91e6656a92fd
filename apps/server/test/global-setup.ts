import { ensureTemplate } from '../src/platform/db-template.js';

/**
 * Once per test run: the database template (src/platform/db-template.ts), so each test file's PGlite
 * starts from a copy with the migrations applied instead of running initdb and every migration itself.
 */
export default async function setup() {
  await ensureTemplate({ log: console.log });
}
