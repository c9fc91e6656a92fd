import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Pipeline } from '@gantry/contracts';
import { http } from '../../../api/http';
import { pipelineKeys } from './keys';

export const listPipelines = (projectId: string) => http.get<{ pipelines: Pipeline[] }>(`/ms-ap/projects/${projectId}/pipelines`);

/** The project's pipelines for the component form, sorted by name. */
export const pipelinesQuery = (projectId: string) =>
  queryOptions({
    queryKey: pipelineKeys.list(projectId),
    queryFn: () => listPipelines(projectId),
    select: (d) => [...d.pipelines].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })),
  });

export const usePipelines = (projectId: string) => useQuery({ ...pipelinesQuery(projectId), enabled: Boolean(projectId) });
