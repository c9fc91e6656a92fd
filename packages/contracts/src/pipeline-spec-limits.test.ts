import { describe, it, expect } from 'vitest';
import { MAX_SPEC_BYTES, SPEC_TOO_LARGE_MESSAGE, UpdateSpecBody, isSpecWithinSize, validatePipelineSpec } from './index.js';

const NOT_YAML = 'Not a valid Yaml File';
const ms = (fn: () => void) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};

describe('pipeline spec: YAML that used to throw (500) is "Not a valid Yaml File" (400)', () => {
  it.each([
    ['merge-key self-reference', 'a: &a\n  <<: *a\n'],
    ['map alias to itself', 'a: &a\n  b: *a\n'],
    ['steps referencing themselves', 'steps: &s\n  X: *s\n'],
    ['self-referencing step', 'steps:\n  X: &x\n    commands:\n      - *x\n'],
    ['sequence alias to itself', 'steps: &l\n  - *l\n'],
    ['undefined alias', 'steps: *nope\n'],
    ['tab indentation', 'steps:\n\tA: 1\n'],
  ])('%s', (_name, yaml) => {
    expect(() => validatePipelineSpec(yaml)).not.toThrow();
    expect(validatePipelineSpec(yaml).errors).toEqual([NOT_YAML]);
  });

  it('refuses an alias bomb quickly instead of expanding it', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    bomb.push('steps:\n  A:\n    commands: *i');
    let result: ReturnType<typeof validatePipelineSpec> | undefined;
    expect(
      ms(() => {
        result = validatePipelineSpec(bomb.join('\n'));
      }),
    ).toBeLessThan(1000);
    expect(result!.errors).toEqual([NOT_YAML]);
  });

  it('still accepts a few ordinary anchors and aliases', () => {
    const yaml = 'steps:\n  A:\n    commands: &cmds\n      - echo hi\n  B:\n    commands: *cmds\n';
    expect(validatePipelineSpec(yaml).errors).toEqual([]);
  });
});

describe(`pipeline spec size cap (${MAX_SPEC_BYTES / 1024} KB)`, () => {
  const specOf = (bytes: number) => {
    let s = 'steps:\n  Build:\n    commands:\n';
    for (let i = 0; s.length < bytes - 40; i++) s += `      - echo "line ${i}"\n`;
    return s + '#'.repeat(Math.max(0, bytes - s.length - 1)) + '\n';
  };

  it('is 256 KB, counted in UTF-8 bytes', () => {
    expect(MAX_SPEC_BYTES).toBe(256 * 1024);
    expect(isSpecWithinSize('a'.repeat(MAX_SPEC_BYTES))).toBe(true);
    expect(isSpecWithinSize('a'.repeat(MAX_SPEC_BYTES + 1))).toBe(false);
    expect(isSpecWithinSize('é'.repeat(MAX_SPEC_BYTES / 2))).toBe(true);
    expect(isSpecWithinSize('é'.repeat(MAX_SPEC_BYTES / 2 + 1))).toBe(false);
  });

  it('validates a spec at the cap', () => {
    const spec = specOf(MAX_SPEC_BYTES);
    expect(spec.length).toBe(MAX_SPEC_BYTES);
    expect(validatePipelineSpec(spec).errors).toEqual([]);
  });

  it('refuses a larger spec at once, with a clear message, without parsing it', () => {
    const huge = specOf(4 * 1024 * 1024);
    let result: ReturnType<typeof validatePipelineSpec> | undefined;
    expect(
      ms(() => {
        result = validatePipelineSpec(huge);
      }),
    ).toBeLessThan(1000); // parsing it would take seconds (a 256 KB spec of tiny steps is about 1 s)
    expect(result).toEqual({ errors: [SPEC_TOO_LARGE_MESSAGE], spec: null });
    expect(SPEC_TOO_LARGE_MESSAGE).toMatch(/256 KB/);
  });

  it('is a field error of the spec update body', () => {
    const r = UpdateSpecBody.safeParse({ gantryYaml: specOf(MAX_SPEC_BYTES + 1) });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.message)).toEqual([SPEC_TOO_LARGE_MESSAGE]);
    expect(UpdateSpecBody.safeParse({ gantryYaml: specOf(MAX_SPEC_BYTES) }).success).toBe(true);
  });
});
