import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TimelineEvent } from '@gantry/contracts';
import { http } from '../../../api/http';
import type { ProjectEventHandlers } from '../../../api/use-project-events';

export const getTimeline = (projectId: string, type: string) =>
  http.get<{ events: TimelineEvent[] }>(`/ms-elasticsearch/projects/${projectId}/timeline${type === 'all' ? '' : `?type=${type}`}`);

const timelineKey = (projectId: string) => ['overview', projectId, 'timeline'] as const;

export const timelineQuery = (projectId: string, type: string) =>
  queryOptions({ queryKey: [...timelineKey(projectId), type], queryFn: () => getTimeline(projectId, type), select: (d) => d.events });

export const useTimeline = (projectId: string | undefined, type: string) => useQuery({ ...timelineQuery(projectId ?? '', type), enabled: !!projectId });

const readAgain = (qc: QueryClient, projectId: string) => void qc.invalidateQueries({ queryKey: timelineKey(projectId) });

/**
 * A build, an environment's deployment or a service's deploy that starts or moves on is an event of the timeline (its
 * status shown): the project room's `build:update`, `deployment:update` and `service:update` have it read again. The overview kept showing what it read
 * when opened: a teammate's build, failed or not, was not on it until a reload.
 */
export const timelineEvents: ProjectEventHandlers = {
  'build:update': readAgain,
  'deployment:update': readAgain,
  'service:update': readAgain,
};
