import { useEffect, useMemo, useState } from 'react';
import { chunkLines, mergeChunks, type SeqChunk } from './log-chunks';
import { openLogStream, type LogSource } from './log-stream';

/** What a log panel streams, and how it reads the stored log when the socket fails. */
export type LogStream = {
  source: LogSource;
  readStored: () => Promise<{ chunks: SeqChunk[] }>;
  /** Shown when the stored log cannot be read either. */
  unreadableMessage: string;
};

export type LogStreamState = {
  /** The lines so far, chunks in seq order, ANSI codes stripped. */
  lines: string[];
  /** Number of chunks received. */
  count: number;
  /** The server answered the subscription (the stored backlog has been sent), or the stored log was read. */
  subscribed: boolean;
  error: string | null;
};

/**
 * A live log (spec §2, §7): subscribed with its backlog, then live chunks, merged by seq; the
 * stored log over HTTP if the socket cannot connect; unsubscribed when the panel closes.
 * `stream` must keep its identity while it is the same log (memoize it): a new one restarts the stream.
 */
export function useLogStream(stream: LogStream): LogStreamState {
  const [chunks, setChunks] = useState<SeqChunk[]>([]);
  const [subscribed, setSubscribed] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setChunks([]);
    setSubscribed(false);
    setError(null);
    let closed = false;
    let readingStored = false;
    const add = (incoming: SeqChunk[]) => {
      if (!closed) setChunks((held) => mergeChunks(held, incoming));
    };
    const readStored = () => {
      if (readingStored || closed) return;
      readingStored = true;
      stream
        .readStored()
        .then((stored) => {
          add(stored.chunks);
          if (!closed) setSubscribed(true);
        })
        .catch(() => {
          if (!closed) setError(stream.unreadableMessage);
        });
    };
    const close = openLogStream(stream.source, {
      onChunk: (chunk) => add([chunk]),
      onAnswer: (answer) => {
        if (closed) return;
        if (answer?.ok) setSubscribed(true);
        else setError(answer?.message ?? 'Could not open the log stream');
      },
      onUnreachable: readStored,
    });
    return () => {
      closed = true;
      close();
    };
  }, [stream]);

  const lines = useMemo(() => chunkLines(chunks), [chunks]);
  return useMemo(() => ({ lines, count: chunks.length, subscribed, error }), [lines, chunks.length, subscribed, error]);
}
