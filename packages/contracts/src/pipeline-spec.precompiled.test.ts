import { describe, expect, it } from 'vitest';
import { validatePipelineSpec } from './pipeline-spec.js';

/**
 * Runs in the contracts-precompiled project only (vitest.config.ts), on the validators the web's build compiles ahead:
 * the browser's policy refuses eval (no 'unsafe-eval' in script-src), so checking a spec must not construct a Function.
 */
describe('pipeline spec validators compiled ahead', () => {
  it('check a spec with no eval', () => {
    const ownFunction = globalThis.Function;
    const refuse = () => {
      throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not allowed");
    };
    globalThis.Function = new Proxy(ownFunction, { construct: refuse, apply: refuse });
    try {
      const { errors } = validatePipelineSpec('steps:\n  Clone:\n    type: git-clone\n    depth: 0\n  Build:\n    commands: []\n');
      expect(errors).toEqual(['Should be at least 1 Path: steps.Clone.depth', 'Array does not have enough items Path: steps.Build.commands']);
    } finally {
      globalThis.Function = ownFunction;
    }
  });
});
