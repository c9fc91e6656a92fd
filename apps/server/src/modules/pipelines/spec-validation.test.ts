import { it, expect } from 'vitest';
import { validatePipelineSpec } from '@gantry/contracts';
import { validateSpecOffThread } from './spec-validation.js';

/** About 250 KB of tiny steps: the slowest shape to parse under the 256 KB cap (~1 s of CPU). */
const heavySpec = () => {
  let y = 'steps:\n';
  for (let i = 0; y.length < 250 * 1024; i++) y += `  S${i}: {commands: [a]}\n`;
  return y;
};

it('validates a large spec on a worker thread: same answer, the event loop stays free', async () => {
  const yaml = heavySpec();
  await validateSpecOffThread('steps:\n' + '  A: {commands: [a]}\n'.repeat(1000)); // start the worker
  // the loop's timers keep firing while the worker parses (about 1 s); on the loop itself none would fire until it ends.
  // Counted rather than timed: a bound on the loop's delay failed under a loaded machine's scheduling.
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const started = performance.now();
  const result = await validateSpecOffThread(yaml);
  const took = performance.now() - started;
  clearInterval(timer);
  expect(result).toEqual(validatePipelineSpec(yaml));
  expect(took, 'the spec is heavy enough to be seen blocking').toBeGreaterThan(100);
  expect(ticks).toBeGreaterThanOrEqual(5);
}, 60_000);

it('answers small and broken specs like validatePipelineSpec', async () => {
  for (const yaml of ['steps:\n  A:\n    commands: [echo]\n', 'a: &a\n  <<: *a\n', ''])
    expect(await validateSpecOffThread(yaml)).toEqual(validatePipelineSpec(yaml));
});

it('validates a spec text once while it is among the last ones validated, and shares a frozen answer', async () => {
  const { rememberValidations } = await import('./spec-validation.js');
  const asked: string[] = [];
  const validate = rememberValidations(async (yaml) => {
    asked.push(yaml);
    return validatePipelineSpec(yaml);
  }, 2);
  const a = 'steps:\n  A:\n    commands: [echo a]\n';
  const b = 'steps:\n  B:\n    commands: [echo b]\n';
  const c = 'steps:\n  C:\n    commands: [echo c]\n';
  const first = await validate(a);
  expect(await validate(a)).toBe(first);
  expect(Object.isFrozen(first.spec!.steps[0])).toBe(true);
  await validate(b);
  await validate(a); // a is the newest again: b goes first
  await validate(c);
  await validate(a);
  await validate(b);
  expect(asked).toEqual([a, b, c, b]);
});
