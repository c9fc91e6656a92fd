import { artifactStepsOf, validatePipelineSpec, type ArtifactStepOption, type PipelineSpec } from '@gantry/contracts';
import { usePipelineSpecAs } from '../../pipelines';

/** What the component form needs of a pipeline's spec: how many steps, and its artifact steps. */
export type PipelineArtifactSteps = { stepCount: number; artifactSteps: ArtifactStepOption[] };

export function artifactStepsOfYaml(gantryYaml: string): PipelineArtifactSteps {
  const { spec } = validatePipelineSpec(gantryYaml ?? '');
  return { stepCount: spec?.steps.length ?? 0, artifactSteps: artifactStepsOf(spec) };
}

const artifactStepsOfSpec = (spec: PipelineSpec) => artifactStepsOfYaml(spec.gantryYaml);

/** The artifact steps (terraform-build, cfn-component) of the chosen pipeline, read through the pipelines feature. */
export const usePipelineArtifactSteps = (projectId: string, pipelineId: string | null | undefined) =>
  usePipelineSpecAs(projectId, pipelineId, artifactStepsOfSpec);
