/** How far a rollout is, in %: ready pods of the desired ones (null while the cluster has no deployment information). */
export function rolloutProgress(replicas: { desired: number; ready: number } | null | undefined): number | null {
  if (!replicas) return null;
  if (replicas.desired === 0) return 100;
  return Math.min(100, Math.round((replicas.ready / replicas.desired) * 100));
}
