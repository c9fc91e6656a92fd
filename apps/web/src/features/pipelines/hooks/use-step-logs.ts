import { io } from 'socket.io-client';
import { useEffect, useMemo, useState } from 'react';
import { REALTIME_PATH } from '../../../api/socket';
import { session } from '../../../api/session';
import { getStepLogs, type StepLogChunk } from '../api/get-step-logs';

type LogEvent = { buildId: string; step: string; seq: number; text: string };

export type StepLogs = {
  /** The lines so far, chunks in seq order (each chunk holds lines joined by newlines). */
  lines: string[];
  /** Number of chunks received. */
  count: number;
  /** The server answered the subscription: the stored backlog has been sent. */
  subscribed: boolean;
  error: string | null;
};

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const sortBySeq = (a: StepLogChunk, b: StepLogChunk) => a.seq - b.seq;

/**
 * The live log of one step (spec §2 Build execution page, §7): its own socket, subscribed
 * with `logs:subscribe` ({projectId, pipelineId, buildId, step, type: 'pipeline'}); the server
 * sends the backlog and then live chunks as 'logs' events, chunks already held (by seq) are
 * dropped. The socket is disconnected when the panel closes (the stream is dropped).
 * If the socket cannot connect, the stored log is read over HTTP instead.
 */
export function useStepLogs(params: { projectId: string; pipelineId: string; buildId: string; step: string } | null): StepLogs {
  const [chunks, setChunks] = useState<StepLogChunk[]>([]);
  const [subscribed, setSubscribed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = params ? `${params.projectId}/${params.pipelineId}/${params.buildId}/${params.step}` : '';

  useEffect(() => {
    setChunks([]);
    setSubscribed(false);
    setError(null);
    if (!params) return;
    const { projectId, pipelineId, buildId, step } = params;
    const seen = new Set<number>();
    let closed = false;
    let fellBack = false;

    const add = (incoming: StepLogChunk[]) => {
      const fresh = incoming.filter((c) => !seen.has(c.seq));
      if (!fresh.length) return;
      fresh.forEach((c) => seen.add(c.seq));
      setChunks((prev) => {
        const next = [...prev, ...fresh];
        // Chunks almost always arrive in order; sort only when one did not.
        return fresh.some((c, i) => (i === 0 ? prev.length > 0 && prev[prev.length - 1]!.seq > c.seq : fresh[i - 1]!.seq > c.seq)) ? next.sort(sortBySeq) : next;
      });
    };

    const socket = io({
      path: REALTIME_PATH,
      query: { Authorization: session.idToken() ?? '' },
      transports: ['websocket', 'polling'],
      reconnectionAttempts: 5,
    });
    socket.io.on('reconnect_attempt', () => {
      socket.io.opts.query = { Authorization: session.idToken() ?? '' };
    });
    socket.on('logs', (e: LogEvent) => {
      if (e.step !== step) return;
      add([{ seq: e.seq, text: e.text }]);
    });
    socket.on('connect', async () => {
      try {
        const answer = (await socket.timeout(15_000).emitWithAck('logs:subscribe', { projectId, pipelineId, buildId, step, type: 'pipeline' })) as { ok: boolean; message?: string };
        if (closed) return;
        if (answer?.ok) setSubscribed(true);
        else setError(answer?.message ?? 'Could not open the log stream');
      } catch {
        if (!closed) fallBack();
      }
    });
    const fallBack = () => {
      if (fellBack || closed) return;
      fellBack = true;
      getStepLogs(projectId, pipelineId, buildId, step)
        .then((r) => {
          if (closed) return;
          add(r.chunks);
          setSubscribed(true);
        })
        .catch(() => !closed && setError('Could not load the logs of this step'));
    };
    socket.on('connect_error', fallBack);

    return () => {
      closed = true;
      socket.disconnect();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const lines = useMemo(() => chunks.flatMap((c) => c.text.replace(ANSI, '').replace(/\r?\n$/, '').split(/\r?\n/)), [chunks]);
  return useMemo(() => ({ lines, count: chunks.length, subscribed, error }), [lines, chunks.length, subscribed, error]);
}
