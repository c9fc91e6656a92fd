import { queryOptions, useQuery } from '@tanstack/react-query';
import { artifactStepsOf, validatePipelineSpec, type ArtifactStepOption, type PipelineSpec } from '@gantry/contracts';
import { http } from '../../../api/http';
import { pipelineKeys } from './keys';

export const getPipelineSpec = (projectId: string, pipelineId: string) =>
  http.get<PipelineSpec>(`/ms-ap/projects/${projectId}/pipelines/${pipelineId}/spec`);

/** What the component form needs of a pipeline's spec: how many steps, and its artifact steps. */
export type PipelineArtifactSteps = { stepCount: number; artifactSteps: ArtifactStepOption[] };

export function artifactStepsOfYaml(gantryYaml: string): PipelineArtifactSteps {
  const { spec } = validatePipelineSpec(gantryYaml ?? '');
  return { stepCount: spec?.steps.length ?? 0, artifactSteps: artifactStepsOf(spec) };
}

export const pipelineSpecQuery = (projectId: string, pipelineId: string) =>
  queryOptions({ queryKey: pipelineKeys.spec(projectId, pipelineId), queryFn: () => getPipelineSpec(projectId, pipelineId), staleTime: 30_000 });

/** The artifact steps (terraform-build, cfn-component) of the chosen pipeline. */
export const usePipelineArtifactSteps = (projectId: string, pipelineId: string | null | undefined) =>
  useQuery({ ...pipelineSpecQuery(projectId, pipelineId ?? ''), enabled: Boolean(projectId && pipelineId), select: (d) => artifactStepsOfYaml(d.gantryYaml) });
