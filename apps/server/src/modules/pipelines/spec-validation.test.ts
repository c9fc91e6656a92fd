import { it, expect } from 'vitest';
import { monitorEventLoopDelay } from 'node:perf_hooks';
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
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const result = await validateSpecOffThread(yaml);
  delay.disable();
  expect(result).toEqual(validatePipelineSpec(yaml));
  expect(delay.max / 1e6).toBeLessThan(250);
}, 60_000);

it('answers small and broken specs like validatePipelineSpec', async () => {
  for (const yaml of ['steps:\n  A:\n    commands: [echo]\n', 'a: &a\n  <<: *a\n', ''])
    expect(await validateSpecOffThread(yaml)).toEqual(validatePipelineSpec(yaml));
});
