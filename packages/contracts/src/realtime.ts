import { z } from 'zod';
import { BuildStatus, type LogChunk } from './pipelines.js';
import { Deployment, DeploymentLogSubscribe, PLAN_STATUSES, type DeploymentLogChunk } from './deployments.js';
import { Resource, Stage } from './stages.js';

/**
 * The socket.io contract at /ms-realtime/websockets/ (server: platform/realtime.ts and the modules'
 * *.realtime.ts). The socket authenticates with the id token in the `Authorization` query value.
 */
export { REALTIME_PATH } from './realtime-path.js';

/** Every client event is answered by this ack. */
export type RealtimeAck = { ok: boolean; message?: string };

/** `build:update`, to the project room whenever a build's status changes (builds.service publishStatus). */
export const BuildUpdateEvent = z.object({ pipelineId: z.string(), buildId: z.string(), status: BuildStatus });
export type BuildUpdateEvent = z.infer<typeof BuildUpdateEvent>;

/** `step:update`, to the project room once a build step's new status is written (builds status-events). */
export const StepUpdateEvent = z.object({
  pipelineId: z.string(),
  buildId: z.string(),
  step: z.string(),
  status: BuildStatus,
  startDate: z.string().nullable().optional(),
  stopDate: z.string().nullable().optional(),
  errorMessage: z.string().nullable().optional(),
});
export type StepUpdateEvent = z.infer<typeof StepUpdateEvent>;

/**
 * `deployment:update`, to the project room once a deployment's row is written (queued, claimed, a status the
 * engine reports, finished, failed by recovery; deployments status-events): the row as the history lists it,
 * without the environment's pointers (those come with `stage:update`).
 */
export const DeploymentUpdateEvent = Deployment.omit({ lastDeploymentId: true, currentDeploymentId: true });
export type DeploymentUpdateEvent = z.infer<typeof DeploymentUpdateEvent>;

/**
 * `stage:update`, to the project room once a deployment moved an environment on (same transaction as the
 * deployment's write): its status and deployment pointers, and its resources' statuses when a run wrote them.
 */
export const StageUpdateEvent = Stage.pick({
  id: true,
  status: true,
  lastDeployed: true,
  lastDeploymentId: true,
  currentDeploymentId: true,
  dateUpdated: true,
}).extend({ resources: z.array(Resource.pick({ name: true, status: true, isDeployed: true })).optional() });
export type StageUpdateEvent = z.infer<typeof StageUpdateEvent>;

/** `plan:update`, to the project room once a plan's status is written (ready, failed, applied, expired). */
export const PlanUpdateEvent = z.object({ stageId: z.string(), planId: z.string(), status: z.enum(PLAN_STATUSES), error: z.string().nullable() });
export type PlanUpdateEvent = z.infer<typeof PlanUpdateEvent>;

/**
 * `service:update`, to the project room once a service's deploy or undeploy to a cluster is written (started,
 * succeeded, failed, undeployed; services.service): what the timeline and the service's history show of it.
 */
export const ServiceUpdateEvent = z.object({
  historyId: z.string(),
  microserviceName: z.string(),
  clusterId: z.string(),
  namespace: z.string(),
  status: z.enum(['IN_PROGRESS', 'SUCCEEDED', 'FAILED', 'UNDEPLOYED']),
  version: z.string(),
});
export type ServiceUpdateEvent = z.infer<typeof ServiceUpdateEvent>;

/** `notification`, to the project room when a finished build notified its members (notifications.service). */
export const NotificationEvent = z.object({ message: z.string() });
export type NotificationEvent = z.infer<typeof NotificationEvent>;

/** `logs:subscribe`: a build step's stored log, then its live chunks, as `logs` events of LogChunk. */
export const BuildLogSubscribe = z.object({
  projectId: z.string().uuid(),
  pipelineId: z.string().uuid(),
  buildId: z.string(),
  step: z.string().min(1),
  type: z.literal('pipeline').default('pipeline'),
});
export type BuildLogSubscribe = z.input<typeof BuildLogSubscribe>;

export interface ServerToClientEvents {
  'build:update': (event: BuildUpdateEvent) => void;
  'step:update': (event: StepUpdateEvent) => void;
  'deployment:update': (event: DeploymentUpdateEvent) => void;
  'stage:update': (event: StageUpdateEvent) => void;
  'plan:update': (event: PlanUpdateEvent) => void;
  'service:update': (event: ServiceUpdateEvent) => void;
  notification: (event: NotificationEvent) => void;
  /** To a build step's log room (LogChunk) or a deployment's log room (DeploymentLogChunk): the backlog on subscribe, then live chunks. */
  logs: (chunk: LogChunk | DeploymentLogChunk) => void;
}

export interface ClientToServerEvents {
  /** Joins the project's room (leaving any other project's): `build:update` and `notification` follow. */
  'project:join': (projectId: string, ack: (answer: RealtimeAck) => void) => void;
  'logs:subscribe': (subscription: BuildLogSubscribe, ack: (answer: RealtimeAck) => void) => void;
  'logs:unsubscribe': (subscription: { buildId: string; step: string }, ack: (answer: RealtimeAck) => void) => void;
  'deployment-logs:subscribe': (subscription: z.infer<typeof DeploymentLogSubscribe>, ack: (answer: RealtimeAck) => void) => void;
  'deployment-logs:unsubscribe': (subscription: { deploymentId: string }, ack: (answer: RealtimeAck) => void) => void;
}
