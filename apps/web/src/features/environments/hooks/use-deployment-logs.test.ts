import { describe, expect, it } from 'vitest';
import { mergeChunks } from './use-deployment-logs';

const chunk = (seq: number, text = `line ${seq}`) => ({ deploymentId: 'd', seq, text });

describe('deployment log chunks', () => {
  it('keeps seq order and drops chunks already held (backlog and live events overlap)', () => {
    const held = mergeChunks([], [chunk(0), chunk(1)]);
    const next = mergeChunks(held, [chunk(1), chunk(3), chunk(2)]);
    expect(next.map((c) => c.seq)).toEqual([0, 1, 2, 3]);
    expect(mergeChunks(next, [chunk(2, 'again')])).toBe(next);
  });
});
