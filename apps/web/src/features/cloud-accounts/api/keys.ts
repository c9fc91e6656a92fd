import type { CloudAccountProvider } from '@gantry/contracts';

/** Query keys of cloud accounts (one list per provider). */
export const cloudAccountKeys = {
  all: (projectId: string) => ['cloud-accounts', projectId] as const,
  list: (projectId: string, provider: CloudAccountProvider) => [...cloudAccountKeys.all(projectId), provider] as const,
};
