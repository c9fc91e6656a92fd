import { afterEach, afterAll } from 'vitest';

/**
 * An unhandled rejection or uncaught error is a bug of ours (a write nobody awaited, a close in the
 * wrong order), even when every assertion passed. Vitest reports it at the end of the run; this
 * also fails the test (or the file's teardown) during which it happened, naming it. Vitest's own
 * handlers stay in place, so nothing is swallowed.
 */
const key = Symbol.for('gantry.test.unhandled');
const registry = globalThis as unknown as Record<symbol, string[] | undefined>;
const seen = (registry[key] ??= []);
if (!process.listeners('unhandledRejection').some((l) => (l as { gantry?: boolean }).gantry)) {
  const record = (kind: string) =>
    Object.assign(
      (err: unknown) => {
        seen.push(`${kind}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      },
      { gantry: true },
    );
  process.on('unhandledRejection', record('unhandled rejection'));
  process.on('uncaughtException', record('uncaught exception'));
}

function failOnUnhandled() {
  if (!seen.length) return;
  const found = seen.splice(0);
  throw new Error(`${found.length} unhandled error(s) in our code:\n${found.join('\n')}`);
}
afterEach(failOnUnhandled);
afterAll(failOnUnhandled);
