/** Query keys of the projects area. Settings keeps a project's users under the same prefix, so a project change refreshes them too. */
export const projectKeys = {
  all: ['projects'] as const,
  list: () => [...projectKeys.all, 'list'] as const,
};
