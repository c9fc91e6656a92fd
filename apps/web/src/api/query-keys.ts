/** Query-key factories: one per area, every project-scoped key starts with the project id. */
export const authKeys = {
  all: ['auth'] as const,
  providers: () => [...authKeys.all, 'providers'] as const,
  promotion: (email: string) => [...authKeys.all, 'promotion', email] as const,
};

export const userKeys = {
  all: ['users'] as const,
  me: () => [...userKeys.all, 'me'] as const,
};

export const projectKeys = {
  all: ['projects'] as const,
  list: () => [...projectKeys.all, 'list'] as const,
  users: (projectId: string) => [...projectKeys.all, projectId, 'users'] as const,
};

export const billingKeys = {
  all: ['billing'] as const,
  plans: () => [...billingKeys.all, 'plans'] as const,
  subscription: (projectId: string) => [...billingKeys.all, projectId, 'subscription'] as const,
  history: (projectId: string) => [...billingKeys.all, projectId, 'history'] as const,
};

export const outboxKeys = {
  all: ['outbox'] as const,
  list: (key?: string) => [...outboxKeys.all, key ?? null] as const,
};

export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
};

/** Environments (stages), their resources, deployments and plans: shared by the environments and deployments features. */
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

export const scheduleKeys = {
  all: ['schedules'] as const,
  list: (projectId: string) => [...scheduleKeys.all, projectId, 'list'] as const,
};

export const deploymentTimeKeys = {
  all: ['deployment-time'] as const,
  project: (projectId: string) => [...deploymentTimeKeys.all, projectId] as const,
};
