import { describe, it, expect } from 'vitest';
import { createLogSink, createMasker } from './log-sink.js';

describe('masking', () => {
  it('hides every occurrence of each secret, longest first', () => {
    const mask = createMasker(['s3cr3t', 's3cr3t-longer', '', 'ab']);
    expect(mask('token=s3cr3t-longer and s3cr3t and ab')).toBe('token=**** and **** and ab');
  });
});

describe('log sink', () => {
  it('writes lines in ordered chunks, publishing each chunk once', async () => {
    const written: { seq: number; text: string }[] = [];
    const published: number[] = [];
    const sink = createLogSink({
      write: async (c) => void written.push(c),
      publish: (c) => published.push(c.seq),
      mask: createMasker(['pw123']), maxLines: 3, flushMs: 10_000,
    });
    for (const l of ['a', 'b', 'pw123', 'd']) sink.line(l);
    await sink.flush();
    expect(written).toEqual([{ seq: 0, text: 'a\nb\n****' }, { seq: 1, text: 'd' }]);
    expect(published).toEqual([0, 1]);
  });
});
