import { useEffect, useState } from 'react';
import { LOG_STREAM, LogStreamChunk } from '@gantry/contracts';
import { refreshIdToken } from '../../../api/http';
import { session } from '../../../api/session';
import { parseSse } from '../lib/sse';
import { podLogStreamPath } from './in-cluster';
import type { ServiceInCluster } from './deployments';

/** The most a followed log keeps in the page (older text is dropped from the top). */
const MAX_CHARS = 1_000_000;

export type FollowState = { text: string; following: boolean; ended: boolean; error: string | null };

/**
 * The live follow stream of a pod's log (contracts LOG_STREAM): fetch with the bearer token and a stream reader
 * (EventSource cannot send the header); an expired token is refreshed once. Stops when `pod` is null or on unmount.
 */
export function useFollowPodLogs(projectId: string, target: ServiceInCluster, pod: string | null): FollowState {
  const [state, setState] = useState<FollowState>({ text: '', following: false, ended: false, error: null });
  const { clusterId, namespace, name } = target;
  useEffect(() => {
    if (!pod || !projectId) return;
    const abort = new AbortController();
    setState({ text: '', following: true, ended: false, error: null });
    const url = `${podLogStreamPath(projectId, { clusterId, namespace, name })}?${new URLSearchParams({ pod, tail: '200' })}`;
    const open = (token: string | null) =>
      fetch(url, { headers: { Accept: LOG_STREAM.contentType, ...(token ? { Authorization: `Bearer ${token}` } : {}) }, signal: abort.signal });
    void (async () => {
      try {
        let res = await open(session.idToken());
        if (res.status === 401) res = await open(await refreshIdToken());
        if (!res.ok || !res.body) {
          const body = (await res.json().catch(() => ({}))) as { message?: string };
          throw new Error(body.message || `The log stream answered ${res.status}`);
        }
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const { events, rest } = parseSse(buffer + value);
          buffer = rest;
          for (const e of events) {
            if (e.event === LOG_STREAM.endEvent) setState((s) => ({ ...s, following: false, ended: true }));
            else if (e.event === LOG_STREAM.errorEvent) {
              const message = (JSON.parse(e.data) as { message?: string }).message ?? 'The log stream failed';
              setState((s) => ({ ...s, following: false, error: message }));
            } else {
              const chunk = LogStreamChunk.safeParse(JSON.parse(e.data));
              if (chunk.success) setState((s) => ({ ...s, text: (s.text + chunk.data.text).slice(-MAX_CHARS) }));
            }
          }
        }
        setState((s) => ({ ...s, following: false }));
      } catch (e) {
        if (abort.signal.aborted) return;
        setState((s) => ({ ...s, following: false, error: e instanceof Error ? e.message : String(e) }));
      }
    })();
    return () => abort.abort();
  }, [projectId, clusterId, namespace, name, pod]);
  return pod ? state : { text: '', following: false, ended: false, error: null };
}
