import { io } from 'socket.io-client';
import { useEffect, useMemo, useState } from 'react';
import type { DeploymentLogChunk } from '@gantry/contracts';
import { REALTIME_PATH } from '../../../api/socket';
import { session } from '../../../api/session';
import { getDeploymentLogs } from '../api/deployments';

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** Adds chunks not held yet (by seq), keeping seq order. */
export function mergeChunks(held: DeploymentLogChunk[], incoming: DeploymentLogChunk[]): DeploymentLogChunk[] {
  const seen = new Set(held.map((c) => c.seq));
  const fresh = incoming.filter((c) => !seen.has(c.seq) && seen.add(c.seq));
  if (!fresh.length) return held;
  return [...held, ...fresh].sort((a, b) => a.seq - b.seq);
}

/**
 * The live terraform log of a deployment (spec §7: projectId, stageId, deploymentId, typeOfLogs=terraform):
 * subscribe, get the stored chunks then the live ones as 'logs' events; the stored log over HTTP if the socket fails.
 */
export function useDeploymentLogs(params: { projectId: string; stageId: string; deploymentId: string } | null) {
  const [chunks, setChunks] = useState<DeploymentLogChunk[]>([]);
  const [error, setError] = useState<string | null>(null);
  const key = params ? `${params.projectId}/${params.stageId}/${params.deploymentId}` : '';
  useEffect(() => {
    setChunks([]);
    setError(null);
    if (!params) return;
    const { projectId, stageId, deploymentId } = params;
    let closed = false;
    const add = (incoming: DeploymentLogChunk[]) => !closed && setChunks((held) => mergeChunks(held, incoming));
    const fallBack = () => getDeploymentLogs(projectId, stageId, deploymentId).then((r) => add(r.chunks)).catch(() => !closed && setError('Could not load the logs of this deployment'));
    const socket = io({ path: REALTIME_PATH, query: { Authorization: session.idToken() ?? '' }, transports: ['websocket', 'polling'], reconnectionAttempts: 5 });
    socket.io.on('reconnect_attempt', () => { socket.io.opts.query = { Authorization: session.idToken() ?? '' }; });
    socket.on('logs', (c: DeploymentLogChunk) => { if (c.deploymentId === deploymentId) add([c]); });
    socket.on('connect', async () => {
      try {
        const answer = (await socket.timeout(15_000).emitWithAck('deployment-logs:subscribe', { projectId, stageId, deploymentId, typeOfLogs: 'terraform' })) as { ok: boolean; message?: string };
        if (!answer?.ok && !closed) setError(answer?.message ?? 'Could not open the log stream');
      } catch {
        void fallBack();
      }
    });
    socket.on('connect_error', () => void fallBack());
    return () => {
      closed = true;
      socket.disconnect();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const lines = useMemo(() => chunks.flatMap((c) => c.text.replace(ANSI, '').split(/\r?\n/)), [chunks]);
  return { lines, error };
}
