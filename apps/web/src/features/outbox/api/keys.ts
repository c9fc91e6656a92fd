export const outboxKeys = {
  all: ['outbox'] as const,
  list: (key?: string) => [...outboxKeys.all, key ?? null] as const,
};
