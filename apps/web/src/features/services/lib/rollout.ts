/** How far a rollout is, in %: ready pods of the desired ones (null while the cluster has no deployment information). */
export function rolloutProgress(replicas: { desired: number; ready: number } | null | undefined): number | null {
  if (!replicas) return null;
  if (replicas.desired === 0) return 100;
  return Math.min(100, Math.round((replicas.ready / replicas.desired) * 100));
}

/**
 * What the cluster dashboard does with a rollout handed over in router state (Add to Cluster). The browser keeps that
 * state across a reload and Back, so only a fresh hand-over is followed at once; the same entry read again is followed
 * only while the server says the rollout is still under way (fewer pods ready than desired), and forgotten once it is
 * done, gone or cannot be read. 'wait' until the status is read.
 */
export function handedRollout(fresh: boolean, status: { read: boolean; replicas?: { desired: number; ready: number } | null }): 'follow' | 'wait' | 'forget' {
  if (fresh) return 'follow';
  if (!status.read) return 'wait';
  const progress = rolloutProgress(status.replicas);
  return progress !== null && progress < 100 ? 'follow' : 'forget';
}
