/** Environments (stages), their resources, deployments and plans; every project-scoped key starts with the project id. */
export const stageKeys = {
  all: ['stages'] as const,
  list: (projectId: string) => [...stageKeys.all, projectId, 'list'] as const,
  detail: (projectId: string, stageId: string) => [...stageKeys.all, projectId, stageId] as const,
  resources: (projectId: string, stageId: string) => [...stageKeys.detail(projectId, stageId), 'resources'] as const,
  outputs: (projectId: string, stageId: string, resourceName: string) => [...stageKeys.detail(projectId, stageId), 'outputs', resourceName] as const,
  deployments: (projectId: string, stageId: string) => [...stageKeys.detail(projectId, stageId), 'deployments'] as const,
  deployment: (projectId: string, stageId: string, deploymentId: string) => [...stageKeys.deployments(projectId, stageId), deploymentId] as const,
  events: (projectId: string, stageId: string) => [...stageKeys.detail(projectId, stageId), 'events'] as const,
  plan: (projectId: string, stageId: string, planId: string) => [...stageKeys.detail(projectId, stageId), 'plan', planId] as const,
};

export { scheduleKeys } from '../../schedules';

export const deploymentTimeKeys = {
  all: ['deployment-time'] as const,
  project: (projectId: string) => [...deploymentTimeKeys.all, projectId] as const,
};
