export const authKeys = {
  all: ['auth'] as const,
  providers: () => [...authKeys.all, 'providers'] as const,
  promotion: (email: string) => [...authKeys.all, 'promotion', email] as const,
};
