export const adminPlanKeys = {
  all: ['admin-plans'] as const,
  projects: () => [...adminPlanKeys.all, 'projects'] as const,
  plans: () => [...adminPlanKeys.all, 'plans'] as const,
};
