import { describe, it, expect } from 'vitest';
import { stepSegment } from './step-segment.js';

describe('stepSegment', () => {
  it('keeps a name that is already one safe path segment', () => {
    expect(['Build', 'unit-tests', 'v1.2_final'].map(stepSegment)).toEqual(['Build', 'unit-tests', 'v1.2_final']);
  });

  it('never names the folder above or below: dots alone and slashes are replaced', () => {
    for (const name of ['.', '..', '../x', 'a/../../b']) {
      const segment = stepSegment(name);
      expect(segment).toMatch(/^[\w.~-]+$/);
      expect(['.', '..']).not.toContain(segment);
    }
  });

  it('keeps apart steps whose names differ only in replaced characters', () => {
    const names = ['a b', 'a/b', 'a_b', 'a:b', '..', '__', '.'];
    expect(new Set(names.map(stepSegment)).size).toBe(names.length);
    expect(stepSegment('a b')).toBe(stepSegment('a b'));
  });
});
