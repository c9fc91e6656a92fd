import { z } from 'zod';
import { InputUuid } from './common.js';

/**
 * Deployments, plans and the status rules of infrastructure-builder spec §4. Statuses follow
 * CloudFormation's stack statuses for both engines (Terraform deployments are given the same
 * names so one display table serves both):
 *
 *   DEPLOY_QUEUED → CREATE_IN_PROGRESS | UPDATE_IN_PROGRESS → CREATE_COMPLETE | UPDATE_COMPLETE
 *                                                          ↘ CREATE_FAILED | UPDATE_FAILED
 *   undeploy:      DELETE_IN_PROGRESS → DELETE_COMPLETE | DELETE_FAILED
 *   CloudFormation only: ROLLBACK_*, UPDATE_ROLLBACK_*, REVIEW_IN_PROGRESS …
 *
 * A cancelled Terraform run ends as CREATE_FAILED / UPDATE_FAILED / DELETE_FAILED with the
 * error "Deployment cancelled".
 */

// ───────────────────────────── status rules ─────────────────────────────

/** Spec §4 "Environment status display". */
export function stackStatusDisplay(status: string | null | undefined): string {
  const s = status ?? 'NOT_DEPLOYED';
  switch (s) {
    case 'CREATE_COMPLETE':
    case 'UPDATE_COMPLETE':
      return 'DEPLOYED';
    case 'CREATE_IN_PROGRESS':
    case 'UPDATE_IN_PROGRESS':
    case 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS':
      return 'DEPLOYING';
    case 'ROLLBACK_IN_PROGRESS':
    case 'UPDATE_ROLLBACK_IN_PROGRESS':
    case 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS':
      return 'ROLLBACK';
    case 'UPDATE_ROLLBACK_COMPLETE':
    case 'ROLLBACK_COMPLETE':
      return 'ROLLBACKED';
    case 'DELETE_IN_PROGRESS':
      return 'TERMINATING';
    case 'DELETE_COMPLETE':
      return 'TERMINATED';
    default:
      return s.includes('FAILED') ? 'FAILED' : s.replace(/_/g, ' ');
  }
}

/** "Not deployed": Delete is offered instead of Undeploy, last deployed shows N/A. */
export const NOT_DEPLOYED_STATUSES = ['NOT_DEPLOYED', 'REVIEW_IN_PROGRESS', 'DELETE_COMPLETE'] as const;
export const stageNotDeployed = (status: string | null | undefined) => !status || (NOT_DEPLOYED_STATUSES as readonly string[]).includes(status);
/**
 * The Last Deployed time an environment shows: its last deployment's, or null (N/A) while not deployed
 * — never deployed, or undeployed (DELETE_COMPLETE), whatever time the last deploy left (spec §4).
 */
export const stageLastDeployed = (stage: { status?: string | null; lastDeployed?: string | null } | undefined) =>
  stage?.lastDeployed && !stageNotDeployed(stage.status) ? stage.lastDeployed : null;
/** "In progress": ends with IN_PROGRESS, except REVIEW_IN_PROGRESS. DEPLOY_QUEUED counts too (a run is waiting). */
export const stageInProgress = (status: string | null | undefined) =>
  !!status && ((status.endsWith('IN_PROGRESS') && status !== 'REVIEW_IN_PROGRESS') || status === 'DEPLOY_QUEUED');

/** Build and deploy status display class (spec §4). */
export type StatusClass = 'warning' | 'fail' | 'queued' | 'nobuild' | 'aborted' | 'success';
export function statusClass(status: string | null | undefined): StatusClass {
  const s = status ?? '';
  if (s.includes('IN_PROGRESS') || s.includes('RUNNING')) return 'warning';
  if (s.includes('FAILED') || s.includes('TIMED_OUT')) return 'fail';
  if (s === 'QUEUED' || s === 'DEPLOY_QUEUED') return 'queued';
  if (s === 'NO BUILD') return 'nobuild';
  if (s === 'ABORTED') return 'aborted';
  return 'success';
}

/** Environment card and details menu (spec §2): what is enabled for a status. */
export function environmentActions(status: string | null | undefined) {
  const running = stageInProgress(status);
  const notDeployed = stageNotDeployed(status);
  return {
    replicate: !running,
    undeploy: !notDeployed && !running,
    delete: notDeployed && !running,
    /** Quick Deploy / Create Plan show unless a deployment runs; Cancel Deployment replaces them. */
    deploy: !running,
    cancel: running,
  };
}

/** Quick deploy is refused in these statuses ("Stack cannot be deployed"). */
export function deployBlockedReason(status: string | null | undefined): { title: string; message: string } | null {
  if (status === 'REVIEW_IN_PROGRESS' || status === 'ROLLBACK_COMPLETE') {
    return { title: 'Stack cannot be deployed', message: `Stack is in ${status} status, you must undeploy it first` };
  }
  return null;
}

/** Deploy and plan need the provider's target account (spec §4); answers the missing field names. */
export function missingTargetAccount(stage: {
  cloudProvider: string;
  awsAccountId?: string | null;
  tenantId?: string | null;
  subscriptionId?: string | null;
  gcpProjectId?: string | null;
  gcpRegion?: string | null;
  gcpZone?: string | null;
}): string[] {
  const need: Record<string, (keyof typeof stage)[]> = {
    aws: ['awsAccountId'],
    azurerm: ['tenantId', 'subscriptionId'],
    google: ['gcpProjectId', 'gcpRegion', 'gcpZone'],
  };
  return (need[stage.cloudProvider] ?? []).filter((k) => !stage[k]) as string[];
}

/** A resource counts as deployed unless NOT_DEPLOYED, DELETE_COMPLETE or CREATE_FAILED. */
export const resourceDeployed = (status: string | null | undefined) => !!status && !['NOT_DEPLOYED', 'DELETE_COMPLETE', 'CREATE_FAILED'].includes(status);

/** Resource card menu (spec §4 "Resources"). */
export function resourceActions(status: string | null | undefined, tool: 'terraform' | 'cloudformation') {
  const busy = !!status && status.endsWith('_IN_PROGRESS');
  const deployed = resourceDeployed(status);
  if (tool !== 'terraform') return { undeploy: false, delete: !busy };
  return { undeploy: deployed && !busy, delete: !deployed && !busy };
}

/** Outputs exist only with a cloud account and a stack that is neither deleted nor rolled back. */
export const outputsAvailable = (stage: { status: string; cloudProvider: string } & Parameters<typeof missingTargetAccount>[0]) =>
  missingTargetAccount(stage).length === 0 && stage.status !== 'DELETE_COMPLETE' && stage.status !== 'ROLLBACK_COMPLETE';

/** Plan action categories (spec §4). */
export function planActionTone(action: string): { tone: 'success' | 'fail' | 'warning' | 'none'; label: string } {
  const a = action.toLowerCase();
  if (a === 'no-op') return { tone: 'none', label: 'No changes' };
  if (a === 'add' || a === 'create') return { tone: 'success', label: action };
  if (a === 'remove' || a === 'delete') return { tone: 'fail', label: action };
  return { tone: 'warning', label: action };
}

/** Deployment time in whole minutes, rounded up (spec §9). */
export const deploymentMinutes = (ms: number) => Math.ceil(Math.max(0, ms) / 60000);

/** A history card shows success only when its status maps to success and it is the current deployment. */
export const deploymentCardSuccess = (item: { status: string; deploymentId: string }, currentDeploymentId: string | null | undefined) =>
  statusClass(item.status) === 'success' && item.deploymentId === currentDeploymentId;

/** Deployment details stop polling once the status contains FAILED or ends with COMPLETE. */
export const deploymentSettled = (status: string | null | undefined) => !!status && (status.includes('FAILED') || status.endsWith('COMPLETE'));

/** Cancel shows while creating or updating; Continue Rollback on UPDATE_ROLLBACK_FAILED. */
export const canCancelDeployment = (status: string | null | undefined) =>
  status === 'CREATE_IN_PROGRESS' || status === 'UPDATE_IN_PROGRESS' || status === 'DEPLOY_QUEUED' || status === 'DELETE_IN_PROGRESS';
export const canContinueRollback = (status: string | null | undefined) => status === 'UPDATE_ROLLBACK_FAILED';

/** Spec §9 polls. */
export const POLL = { deploymentListMs: 10_000, deploymentDetailsMs: 5_000, planMs: 5_000 } as const;

// ───────────────────────────── wire shapes ─────────────────────────────

export const DEPLOYMENT_KINDS = ['DEPLOY', 'PLAN_APPLY', 'UNDEPLOY', 'UNDEPLOY_RESOURCE'] as const;
export const DeploymentKind = z.enum(DEPLOYMENT_KINDS);
export type DeploymentKind = z.infer<typeof DeploymentKind>;

export const DeploymentResource = z.object({
  name: z.string(),
  component: z.object({ id: z.string(), name: z.string() }),
  /** The version deployed: a build id (or vendor id) — LATEST resolved at deploy time. */
  componentVersion: z.string(),
  /** First 7 characters of the commit or vendor hash. */
  version: z.string().nullable(),
});
export type DeploymentResource = z.infer<typeof DeploymentResource>;

/** A CloudFormation error event, grouped per resource in `logs`. */
export const DeploymentErrorMessage = z.object({ logicalResourceId: z.string(), resourceType: z.string(), statusReason: z.string() });

/** One row of the deployment history (spec §3 "Deployment history item"), latest first. */
export const Deployment = z.object({
  id: z.string(),
  deploymentId: z.string(),
  stageId: z.string(),
  kind: DeploymentKind,
  status: z.string(),
  /** When it was queued (ISO). */
  timestamp: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Milliseconds the engine ran (counted against buildMinutes for Terraform). */
  durationMs: z.number().nullable(),
  error: z.string().nullable(),
  planId: z.string().nullable(),
  /** Only for UNDEPLOY_RESOURCE. */
  resourceName: z.string().nullable(),
  lastDeploymentId: z.string().nullable(),
  currentDeploymentId: z.string().nullable(),
  resources: z.array(DeploymentResource),
  logs: z.record(z.string(), z.object({ errorMessages: z.array(DeploymentErrorMessage) })),
  startedBy: z.string().nullable(),
});
export type Deployment = z.infer<typeof Deployment>;

export const DeploymentHistoryQuery = z.object({ lastDeploymentId: InputUuid().optional(), limit: z.coerce.number().int().min(1).max(100).default(20) });
export const DeploymentHistory = z.object({ deployments: z.array(Deployment), limitedByPlan: z.boolean() });
export type DeploymentHistory = z.infer<typeof DeploymentHistory>;

/** Answer of deploy, undeploy and plan-apply: the new status is applied to the environment. */
export const DeploymentStarted = z.object({ deploymentId: z.string(), status: z.string() });
export type DeploymentStarted = z.infer<typeof DeploymentStarted>;

export const PLAN_STATUSES = ['CREATING', 'READY', 'FAILED', 'APPLIED', 'EXPIRED'] as const;
export const PlanChangeView = z.object({
  /** create, update, delete, replace, no-op … (terraform's actions joined: delete+create → replace). */
  action: z.string(),
  /** The environment resource the change belongs to. */
  resourceName: z.string(),
  /** terraform address of the changed object. */
  address: z.string(),
  componentId: z.string().nullable(),
  name: z.string().nullable(),
  version: z.string().nullable(),
});
export type PlanChangeView = z.infer<typeof PlanChangeView>;
export const Plan = z.object({
  planId: z.string(),
  stageId: z.string(),
  status: z.enum(PLAN_STATUSES),
  error: z.string().nullable(),
  createdAt: z.string(),
  summary: z.object({ add: z.number(), change: z.number(), destroy: z.number() }).nullable(),
  changes: z.array(PlanChangeView),
});
export type Plan = z.infer<typeof Plan>;
export const PlanParams = z.object({ projectId: InputUuid(), stageId: InputUuid(), planId: InputUuid() });
export const DeploymentParams = z.object({ projectId: InputUuid(), stageId: InputUuid(), deploymentId: InputUuid() });

export const ResourceOutputs = z.object({ outputs: z.array(z.object({ key: z.string(), value: z.string(), sensitive: z.boolean() })) });
export type ResourceOutputs = z.infer<typeof ResourceOutputs>;

/** A CloudFormation stack event (spec §2 deployment details, Cloudformation). */
export const StackEvent = z.object({
  eventId: z.string(),
  timestamp: z.string(),
  logicalResourceId: z.string(),
  resourceType: z.string(),
  resourceStatus: z.string(),
  statusReason: z.string().nullable(),
});
export type StackEvent = z.infer<typeof StackEvent>;

/** One stored chunk of a deployment's terraform log; `seq` orders chunks, clients drop ones they have. */
export const DeploymentLogChunk = z.object({ deploymentId: z.string(), seq: z.number(), text: z.string() });
export type DeploymentLogChunk = z.infer<typeof DeploymentLogChunk>;
/**
 * The live terraform log (socket.io): emit `deployment-logs:subscribe` with this payload; the server
 * answers `{ ok }`, sends the stored chunks and then every new one as `logs` events of DeploymentLogChunk.
 */
export const DeploymentLogSubscribe = z.object({
  projectId: z.string().uuid(),
  stageId: z.string().uuid(),
  deploymentId: z.string().uuid(),
  typeOfLogs: z.literal('terraform'),
});
export const DEPLOYMENT_LOGS_EVENT = 'logs';

/** getDeploymentTime (/ms-elasticsearch): milliseconds of deployments this month, and per environment. */
export const DeploymentTime = z.object({
  deploymentTime: z.number(),
  stages: z.array(z.object({ stageId: z.string(), name: z.string(), deploymentTime: z.number() })),
});
export type DeploymentTime = z.infer<typeof DeploymentTime>;

/**
 * The Terraform rollback check (spec §4): when a deployment failed — an UPDATE_ROLLBACK status, or a
 * DEPLOY_QUEUED run that ended with the stage failed — the last good version of each resource is
 * the one of the newest successful deployment before it. `history` is latest first, as listed.
 */
export function lastGoodVersions(
  history: Pick<Deployment, 'deploymentId' | 'status' | 'kind' | 'resources'>[],
  failedDeploymentId: string,
): Record<string, { componentVersion: string; version: string | null }> | null {
  const at = history.findIndex((d) => d.deploymentId === failedDeploymentId);
  if (at < 0) return null;
  const failed = history[at]!;
  if (!(failed.status.includes('FAILED') || failed.status.startsWith('UPDATE_ROLLBACK'))) return null;
  const good = history
    .slice(at + 1)
    .find((d) => d.kind !== 'UNDEPLOY' && d.kind !== 'UNDEPLOY_RESOURCE' && (d.status === 'CREATE_COMPLETE' || d.status === 'UPDATE_COMPLETE'));
  if (!good) return null;
  return Object.fromEntries(good.resources.map((r) => [r.name, { componentVersion: r.componentVersion, version: r.version }]));
}
