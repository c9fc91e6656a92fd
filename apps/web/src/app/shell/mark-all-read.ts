import { inParallel } from '../../api/in-parallel';

/** Requests of Mark all as read in flight at once: a few, leaving the browser's other connections to the page. */
export const MARK_ALL_READ_AT_ONCE = 4;

/**
 * Mark all as read (spec §2.7 and its call list: Mark all read takes a projectId): one request per project, sent side
 * by side, a few at a time, instead of one after another. Rejects with the first failure once every request ended.
 */
export const markAllRead = (projectIds: readonly string[], put: (url: string) => Promise<unknown>) =>
  inParallel(projectIds, MARK_ALL_READ_AT_ONCE, (projectId) => put(`/ms-notification/projects/${projectId}/notifications/read`));
