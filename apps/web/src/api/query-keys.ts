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
