import type { DeploymentLogChunk, LogChunk, RealtimeAck } from '@gantry/contracts';
import { connectedSocket, onRealtime, onRealtimeUnreachable, whileConnected, type RealtimeSocket } from './realtime';

/** A log the server streams (modules' builds.realtime.ts and deployments.realtime.ts). */
export type LogSource =
  /** A build step's log; `buildId` is the build's id (its chunks carry it), not its number. */
  | { kind: 'build-step'; projectId: string; pipelineId: string; buildId: string; step: string }
  | { kind: 'deployment'; projectId: string; stageId: string; deploymentId: string };

export type LogStreamHandlers = {
  onChunk: (chunk: LogChunk | DeploymentLogChunk) => void;
  /** The server's answer to each (re)subscription; the backlog has been sent when it is ok. */
  onAnswer: (answer: RealtimeAck) => void;
  /** The socket could not connect, or the subscription was not answered in time. */
  onUnreachable: () => void;
};

const ANSWER_TIMEOUT_MS = 15_000;
const ignore = () => {};

function subscribe(s: RealtimeSocket, source: LogSource, answer: (err: Error | null, answer: RealtimeAck) => void) {
  const timed = s.timeout(ANSWER_TIMEOUT_MS);
  if (source.kind === 'build-step') {
    const { projectId, pipelineId, buildId, step } = source;
    timed.emit('logs:subscribe', { projectId, pipelineId, buildId, step, type: 'pipeline' }, answer);
  } else {
    const { projectId, stageId, deploymentId } = source;
    timed.emit('deployment-logs:subscribe', { projectId, stageId, deploymentId, typeOfLogs: 'terraform' }, answer);
  }
}

function unsubscribe(s: RealtimeSocket, source: LogSource) {
  if (source.kind === 'build-step') s.emit('logs:unsubscribe', { buildId: source.buildId, step: source.step }, ignore);
  else s.emit('deployment-logs:unsubscribe', { deploymentId: source.deploymentId }, ignore);
}

/** Both kinds arrive as `logs` events: each stream keeps its own. */
function carries(source: LogSource, chunk: LogChunk | DeploymentLogChunk): boolean {
  if (source.kind === 'build-step') return 'buildId' in chunk && chunk.buildId === source.buildId && chunk.step === source.step;
  return 'deploymentId' in chunk && chunk.deploymentId === source.deploymentId;
}

const sourceKey = (source: LogSource) => (source.kind === 'build-step' ? `build-step:${source.buildId}:${source.step}` : `deployment:${source.deploymentId}`);
/** Streams open per source: the server's room is left only when the last one closes. */
const openCount = new Map<string, number>();

/**
 * Subscribes to a log on the session's socket, and again on every reconnect (the server then
 * sends the backlog again: chunks are merged by seq). Returns the way to close the stream.
 */
export function openLogStream(source: LogSource, on: LogStreamHandlers): () => void {
  const key = sourceKey(source);
  openCount.set(key, (openCount.get(key) ?? 0) + 1);
  const stopChunks = onRealtime('logs', (chunk) => {
    if (carries(source, chunk)) on.onChunk(chunk);
  });
  const stopUnreachable = onRealtimeUnreachable(on.onUnreachable);
  const stopSubscribing = whileConnected((s) => subscribe(s, source, (err, answer) => (err ? on.onUnreachable() : on.onAnswer(answer))));
  return () => {
    stopSubscribing();
    stopUnreachable();
    stopChunks();
    const left = (openCount.get(key) ?? 1) - 1;
    if (left > 0) return void openCount.set(key, left);
    openCount.delete(key);
    const s = connectedSocket();
    if (s) unsubscribe(s, source);
  };
}
