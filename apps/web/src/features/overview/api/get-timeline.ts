import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TimelineEvent } from '@gantry/contracts';
import { http } from '../../../api/http';

export const getTimeline = (projectId: string, type: string) =>
  http.get<{ events: TimelineEvent[] }>(`/ms-elasticsearch/projects/${projectId}/timeline${type === 'all' ? '' : `?type=${type}`}`);

export const timelineQuery = (projectId: string, type: string) =>
  queryOptions({ queryKey: ['overview', projectId, 'timeline', type], queryFn: () => getTimeline(projectId, type), select: (d) => d.events });

export const useTimeline = (projectId: string | undefined, type: string) => useQuery({ ...timelineQuery(projectId ?? '', type), enabled: !!projectId });
