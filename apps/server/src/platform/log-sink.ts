/** One flushed piece of a log: lines joined by newlines, numbered from 0. */
export interface LogChunk {
  seq: number;
  text: string;
}

/**
 * Collects a job's log lines (a build step's, a deployment's) and writes them in chunks: one row and
 * one socket event per flush, so a step printing 100,000 lines costs a few hundred inserts, not 100,000.
 * Writes go out one after the other in order; a failed write is reported to `onWriteError` and the
 * next chunks are still written, so no write ever rejects where nobody awaits it.
 * A chunk is published once its write has committed: a viewer joining in between reads it from the
 * stored backlog and then receives only later chunks, so none is lost between the two.
 */
export function createLogSink(o: {
  write: (chunk: LogChunk) => Promise<unknown>;
  publish: (chunk: LogChunk) => void;
  mask: (line: string) => string;
  /** Told of each chunk that could not be stored (the caller logs it with its context). */
  onWriteError?: (err: unknown, chunk: LogChunk) => void;
  flushMs?: number;
  maxLines?: number;
}) {
  let lines: string[] = [];
  let seq = 0;
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  const maxLines = o.maxLines ?? 2000;
  const onWriteError = o.onWriteError ?? ((err: unknown, chunk: LogChunk) => console.error(`[gantry] could not store log chunk ${chunk.seq}:`, err));

  /** The buffered lines as the next chunk (null when there are none), the flush timer stopped. */
  const take = (): LogChunk | null => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (!lines.length) return null;
    const chunk = { seq: seq++, text: lines.join('\n') };
    lines = [];
    return chunk;
  };

  /** Sends the buffered lines; resolves once every write queued so far has settled (never rejects). */
  const flush = () => {
    const chunk = take();
    if (chunk) {
      writing = writing
        .then(() => o.write(chunk))
        .then(
          () => o.publish(chunk),
          (err) => {
            onWriteError(err, chunk);
            o.publish(chunk); // not stored, yet those watching still see it
          },
        );
    }
    return writing;
  };

  /**
   * The last flush of a log: the lines left (null when none) are handed to `write`, after every chunk before
   * them, to be stored with what the caller writes at the same time (a step's end); the chunk is published
   * when `write` calls `written` (once it committed), else when it returns. A failed write is told to
   * onWriteError, the chunk still published, and the failure answered to the caller.
   */
  const end = <T>(write: (chunk: LogChunk | null, written: () => void) => Promise<T>): Promise<T> => {
    const chunk = take();
    let told = false;
    const tell = () => {
      if (told || !chunk) return;
      told = true;
      o.publish(chunk);
    };
    const result = writing
      .then(() => write(chunk, tell))
      .then(
        (value) => {
          tell();
          return value;
        },
        (err) => {
          if (chunk) onWriteError(err, chunk);
          tell();
          throw err;
        },
      );
    writing = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  };

  return {
    end,
    line(raw: string) {
      lines.push(o.mask(raw));
      if (lines.length >= maxLines) void flush();
      else if (!timer) timer = setTimeout(() => void flush(), o.flushMs ?? 100);
    },
    flush,
  };
}
export type LogSink = ReturnType<typeof createLogSink>;
