import { Alert, Anchor, Select, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { componentMessages, type ComponentDetails } from '@gantry/contracts';
import { FormSection } from '../../../ui/FormSection';
import { useErrorToast } from '../../../ui/use-error-toast';
import { usePipelineList } from '../../pipelines';
import { usePipelineArtifactSteps } from '../hooks/use-pipeline-artifact-steps';
import type { ComponentForm } from './component-form';

/**
 * The pipeline that builds the component and its artifact step (spec §2): another pipeline clears the step; on AWS the
 * step decides the IaC tool. The saved pipeline and step stay selectable when the lists no longer have them.
 */
export function ComponentBuildSection({ form, projectId, saved }: { form: ComponentForm; projectId: string; saved?: ComponentDetails }) {
  const { pipelineId, artifactStep } = form.values;
  const { errors } = form;
  const pipelines = usePipelineList(projectId, 'name');
  const steps = usePipelineArtifactSteps(projectId, pipelineId);
  useErrorToast(pipelines.error);

  const pipelineOptions = useMemo(() => {
    const list = (pipelines.data ?? []).map((p) => ({ value: p.id, label: p.name }));
    if (saved?.pipelineId && !list.some((p) => p.value === saved.pipelineId))
      list.unshift({ value: saved.pipelineId, label: saved.pipelineName ?? saved.pipelineId });
    return list;
  }, [pipelines.data, saved]);

  const artifactSteps = useMemo(() => steps.data?.artifactSteps ?? [], [steps.data]);
  const stepOptions = useMemo(() => {
    const list = artifactSteps.map((s) => ({ value: s.name, label: s.name }));
    if (artifactStep && list.length && !list.some((s) => s.value === artifactStep)) list.unshift({ value: artifactStep, label: artifactStep });
    return list;
  }, [artifactSteps, artifactStep]);
  const pipelineWithoutArtifactStep = Boolean(pipelineId) && (steps.isError || (steps.isSuccess && artifactSteps.length === 0));

  const onPipeline = (v: string | null) => {
    form.setValues((f) => ({ pipelineId: v, artifactStep: v === f.pipelineId ? f.artifactStep : null }));
    form.clearErrors('pipelineId', 'artifactStep');
  };
  const onStep = (v: string | null) => {
    const step = artifactSteps.find((s) => s.name === v);
    // The step decides the tool when the provider lets the user choose (aws).
    form.setValues((f) => ({
      artifactStep: v,
      infrastructureAsCodeTool: step && f.cloudProvider === 'aws' ? step.infrastructureAsCodeTool : f.infrastructureAsCodeTool,
    }));
    form.clearErrors('artifactStep', 'infrastructureAsCodeTool');
  };

  return (
    <FormSection title="Build" description="The pipeline that builds the component and the step whose output is deployed">
      <Select
        label="Pipeline"
        placeholder={pipelines.isPending ? 'Loading pipelines…' : 'Select a pipeline'}
        withAsterisk
        searchable
        data={pipelineOptions}
        value={pipelineId}
        onChange={onPipeline}
        nothingFoundMessage="No pipelines found"
        error={errors.pipelineId}
        allowDeselect={false}
        maxDropdownHeight={300}
        description={
          pipelines.isSuccess && pipelines.data.length === 0 ? (
            <>
              This project has no pipelines yet.{' '}
              <Anchor component={Link} to="/pipelines/create" size="xs">
                Create Pipeline
              </Anchor>
            </>
          ) : undefined
        }
      />
      {pipelineId && steps.isPending && <Skeleton height={36} radius="sm" />}
      {stepOptions.length > 0 && (
        <Select
          label="Artifact step"
          placeholder="Select the artifact step"
          withAsterisk
          data={stepOptions}
          value={artifactStep}
          onChange={onStep}
          error={errors.artifactStep}
          allowDeselect={false}
          maxDropdownHeight={300}
          description="A terraform-build or cfn-component step of the pipeline"
        />
      )}
      {pipelineWithoutArtifactStep && (
        <Stack gap={4}>
          <Alert color="yellow" variant="light" radius="md" icon={<IconAlertTriangle size={18} />} data-testid="no-artifact-step">
            {componentMessages.noArtifactStep}
          </Alert>
          {errors.artifactStep && (
            <Text size="xs" c="red">
              {errors.artifactStep}
            </Text>
          )}
        </Stack>
      )}
      {!pipelineId && errors.artifactStep && !errors.pipelineId && (
        <Text size="xs" c="red">
          {errors.artifactStep}
        </Text>
      )}
    </FormSection>
  );
}
