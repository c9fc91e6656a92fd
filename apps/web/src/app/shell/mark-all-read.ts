import pMap from 'p-map';

/** Requests of Mark all as read in flight at once: a few, leaving the browser's other connections to the page. */
export const MARK_ALL_READ_AT_ONCE = 4;

/**
 * Mark all as read (spec §2.7 and its call list: Mark all read takes a projectId): one request per project, sent side
 * by side, a few at a time, instead of one after another. One that fails does not stop the others: once every request
 * ended, rejects with the failure of the first project that failed.
 */
export const markAllRead = async (projectIds: readonly string[], put: (url: string) => Promise<unknown>) => {
  await pMap(projectIds, (projectId) => put(`/ms-notification/projects/${projectId}/notifications/read`), {
    concurrency: MARK_ALL_READ_AT_ONCE,
    stopOnError: false,
  }).catch((err: unknown) => {
    throw err instanceof AggregateError ? err.errors[0] : err;
  });
};
