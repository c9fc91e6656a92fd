/** Query keys of the saving schedules (shared with the environment screens, which read the same list); every key starts with the project id. */
export const scheduleKeys = {
  all: ['schedules'] as const,
  list: (projectId: string) => [...scheduleKeys.all, projectId, 'list'] as const,
  detail: (projectId: string, scheduleId: string) => [...scheduleKeys.all, projectId, 'detail', scheduleId] as const,
  runs: (projectId: string, scheduleId: string) => [...scheduleKeys.all, projectId, 'runs', scheduleId] as const,
  resources: (projectId: string, awsAccountId: string, awsRegion: string) => [...scheduleKeys.all, projectId, 'resources', awsAccountId, awsRegion] as const,
};

export const schedulesPath = (projectId: string) => `/ms-cloud-cost-optimizer/projects/${projectId}/schedules`;
export const schedulePath = (projectId: string, scheduleId: string) => `${schedulesPath(projectId)}/${encodeURIComponent(scheduleId)}`;
