import type { StageRow as StoredStage, ResourceRow } from './stages.store.js';
import type { StagesService } from './stages.service.js';

/** An environment as deployments see it: what it is, where it deploys, and its deployment pointers. */
export type StageRow = Pick<
  StoredStage,
  | 'id'
  | 'projectId'
  | 'name'
  | 'status'
  | 'cloudProvider'
  | 'iacTool'
  | 'awsAccountId'
  | 'awsRegion'
  | 'tenantId'
  | 'subscriptionId'
  | 'gcpProjectId'
  | 'gcpRegion'
  | 'gcpZone'
  | 'lastDeploymentId'
  | 'currentDeploymentId'
  | 'lastDeployed'
>;

/** A resource of an environment, as stored (sensitive values sealed). */
export type StageResourceRow = ResourceRow;

/** The environments api other modules are handed (`needs.stages`). */
export type StagesApi = StagesService;
