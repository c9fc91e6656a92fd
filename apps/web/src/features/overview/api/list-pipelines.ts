import { queryOptions, useQuery } from '@tanstack/react-query';
import { sortPipelines, type Pipeline } from '@gantry/contracts';
import { http } from '../../../api/http';

export const listPipelines = (projectId: string) => http.get<{ pipelines: Pipeline[] }>(`/ms-ap/projects/${projectId}/pipelines`);

/** The overview's pipelines panel: latest activity first. */
export const overviewPipelinesQuery = (projectId: string) =>
  queryOptions({ queryKey: ['overview', projectId, 'pipelines'], queryFn: () => listPipelines(projectId), select: (d) => sortPipelines(d.pipelines) });

export const useOverviewPipelines = (projectId: string | undefined) => useQuery({ ...overviewPipelinesQuery(projectId ?? ''), enabled: !!projectId, retry: false });
