import { describe, expect, it } from 'vitest';
import { chunkLines, mergeChunks } from './log-chunks';

const chunk = (seq: number, text = `line ${seq}`) => ({ deploymentId: 'd', seq, text });

describe('log chunks', () => {
  it('keeps seq order and drops chunks already held (backlog and live events overlap)', () => {
    const held = mergeChunks([], [chunk(0), chunk(1)]);
    const next = mergeChunks(held, [chunk(1), chunk(3), chunk(2)]);
    expect(next.map((c) => c.seq)).toEqual([0, 1, 2, 3]);
    expect(mergeChunks(next, [chunk(2, 'again')])).toBe(next);
  });

  it('takes a chunk repeated within one batch once, and one older than all held into its place', () => {
    const held = mergeChunks([], [chunk(4), chunk(5)]);
    expect(mergeChunks(held, [chunk(6), chunk(6, 'again'), chunk(1)]).map((c) => [c.seq, c.text])).toEqual([
      [1, 'line 1'],
      [4, 'line 4'],
      [5, 'line 5'],
      [6, 'line 6'],
    ]);
  });

  it('shows lines without ANSI codes, a trailing newline adding no empty line', () => {
    expect(chunkLines([chunk(0, '\x1b[32mok\x1b[0m\nnext\n'), chunk(1, 'last\r\n\r\nend')])).toEqual(['ok', 'next', 'last', '', 'end']);
  });
});
