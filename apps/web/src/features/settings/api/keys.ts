export { projectUserKeys } from '../../../api/project-users';

export const billingKeys = {
  all: ['billing'] as const,
  plans: () => [...billingKeys.all, 'plans'] as const,
  subscription: (projectId: string) => [...billingKeys.all, projectId, 'subscription'] as const,
  history: (projectId: string) => [...billingKeys.all, projectId, 'history'] as const,
  payments: (projectId: string) => [...billingKeys.all, projectId, 'payments'] as const,
  provider: () => [...billingKeys.all, 'provider'] as const,
};

/** A project's Slack integration and who receives its notifications. */
export const notificationSettingsKeys = {
  integrations: (projectId: string) => ['notification-settings', projectId, 'integrations'] as const,
  subscribers: (projectId: string) => ['notification-settings', projectId, 'subscribers'] as const,
};
