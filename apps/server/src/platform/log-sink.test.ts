import { describe, it, expect } from 'vitest';
import { createLogSink } from './log-sink.js';
import { createMasker } from './masking.js';

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
      mask: createMasker(['pw123']),
      maxLines: 3,
      flushMs: 10_000,
    });
    for (const l of ['a', 'b', 'pw123', 'd']) sink.line(l);
    await sink.flush();
    expect(written).toEqual([
      { seq: 0, text: 'a\nb\n****' },
      { seq: 1, text: 'd' },
    ]);
    expect(published).toEqual([0, 1]);
  });
});

describe('log sink publishing', () => {
  it('publishes a chunk only once its write has committed', async () => {
    const events: string[] = [];
    let commit!: () => void;
    const committed = new Promise<void>((r) => (commit = r));
    const sink = createLogSink({
      write: async (c) => {
        await committed;
        events.push(`stored ${c.seq}`);
      },
      publish: (c) => events.push(`published ${c.seq}`),
      mask: (l) => l,
      flushMs: 10_000,
    });
    sink.line('a');
    const drained = sink.flush();
    await Promise.resolve();
    expect(events).toEqual([]);
    commit();
    await drained;
    expect(events).toEqual(['stored 0', 'published 0']);
  });
});

describe('log sink writes that fail', () => {
  it('reports a failed chunk, still writes the later ones, and flush waits for all without rejecting', async () => {
    const written: number[] = [];
    const failed: number[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => {
      release = r;
    });
    const sink = createLogSink({
      write: async (c) => {
        if (c.seq === 0) {
          await slow;
          throw new Error('PGlite is closed');
        }
        written.push(c.seq);
      },
      publish: () => undefined,
      onWriteError: (_err, c) => failed.push(c.seq),
      mask: (l) => l,
      maxLines: 1,
      flushMs: 10_000,
    });
    sink.line('a'); // flushed at once (maxLines 1), nobody awaits it
    sink.line('b');
    const drained = sink.flush();
    release();
    await expect(drained).resolves.toBeUndefined();
    expect(failed).toEqual([0]);
    expect(written).toEqual([1]);
  });
});

describe("a log's last flush, written with the caller's own write", () => {
  it('hands the lines left to the write after every earlier chunk, and publishes them once it tells they are stored', async () => {
    const events: string[] = [];
    let storeFirst!: () => void;
    const firstStored = new Promise<void>((r) => (storeFirst = r));
    const sink = createLogSink({
      write: async (c) => {
        await firstStored;
        events.push(`stored ${c.seq}`);
      },
      publish: (c) => events.push(`published ${c.seq}`),
      mask: createMasker(['pw123']),
      maxLines: 2,
      flushMs: 10_000,
    });
    for (const l of ['a', 'b', 'c pw123']) sink.line(l); // 'a', 'b' go out at once
    const ended = sink.end(async (chunk, written) => {
      events.push(`step end with ${JSON.stringify(chunk)}`);
      written();
      events.push('told after the commit');
      return 'row';
    });
    await Promise.resolve();
    expect(events).toEqual([]);
    storeFirst();
    await expect(ended).resolves.toBe('row');
    expect(events).toEqual(['stored 0', 'published 0', 'step end with {"seq":1,"text":"c ****"}', 'published 1', 'told after the commit']);
    // nothing left: the write still happens (the step's end), with no chunk and nothing published
    await expect(sink.end(async (chunk) => chunk)).resolves.toBeNull();
    expect(events.at(-1)).toBe('told after the commit');
  });

  it('reports a chunk whose write failed, still publishes it, and answers the failure', async () => {
    const published: number[] = [];
    const failed: number[] = [];
    const sink = createLogSink({
      write: async () => undefined,
      publish: (c) => published.push(c.seq),
      onWriteError: (_err, c) => failed.push(c.seq),
      mask: (l) => l,
      flushMs: 10_000,
    });
    sink.line('last');
    await expect(sink.end(() => Promise.reject(new Error('the database went away')))).rejects.toThrow('the database went away');
    expect(failed).toEqual([0]);
    expect(published).toEqual([0]);
    // later lines (the step's failure) are written as usual
    sink.line('[gantry] failed');
    await sink.flush();
    expect(published).toEqual([0, 1]);
  });
});
