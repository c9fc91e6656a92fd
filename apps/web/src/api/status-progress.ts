import { stageInProgress } from '@gantry/contracts';

type Status = string | null | undefined;

/**
 * How far along a run is — a build, a build step, a deployment: statuses only ever move forward
 * (none yet, queued, running, ended). Builds: SCHEDULING/QUEUED → RUNNING → an end; deployments
 * (CloudFormation's names): DEPLOY_QUEUED → …_IN_PROGRESS → …_COMPLETE / …_FAILED.
 */
export function statusProgress(s: Status): number {
  if (!s) return 0;
  if (s === 'SCHEDULING' || s === 'QUEUED' || s === 'DEPLOY_QUEUED') return 1;
  if (s === 'RUNNING' || stageInProgress(s)) return 2;
  return 3;
}

/**
 * Whether `a` is further along than `b`: a status pushed over the socket is never taken back by a
 * poll answered later with the older state, nor by an event that arrives late.
 */
export const further = (a: Status, b: Status) => statusProgress(a) > statusProgress(b);
