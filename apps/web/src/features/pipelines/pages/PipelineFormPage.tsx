import { Anchor, Button, Card, Group, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PipelineBody, UpdatePipelineBody, type Pipeline } from '@gantry/contracts';
import { isApiError } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { useForm } from '../../../ui/form';
import { PageHeader } from '../../../ui/PageHeader';
import { useCreatePipeline } from '../api/create-pipeline';
import { usePipeline } from '../api/get-pipeline';
import { useUpdatePipeline } from '../api/update-pipeline';
import { PipelineBuildSection } from '../components/PipelineBuildSection';
import { PipelineGeneralSection } from '../components/PipelineGeneralSection';
import { PipelineLoadError } from '../components/PipelineLoadError';
import { PipelineSourceSection } from '../components/PipelineSourceSection';
import { PipelineTriggersSection } from '../components/PipelineTriggersSection';
import { EMPTY_PIPELINE_FORM, pipelineFormInput, pipelineFormValues } from '../components/pipeline-form';

/** /pipelines/create and /pipelines/:pipelineId/edit (spec §2, §5). Validates on submit with the server's schema. */
export default function PipelineFormPage() {
  const { pipelineId } = useParams();
  const editing = Boolean(pipelineId);
  const projectId = useCurrentProject()?.id ?? '';
  const pipeline = usePipeline(projectId, pipelineId);
  const title = editing ? 'Edit Pipeline' : 'Create Pipeline';
  const back = editing ? `/pipelines/${pipelineId}/details` : '/pipelines';

  useEffect(() => {
    if (pipeline.error) toast.apiError(pipeline.error);
  }, [pipeline.error]);

  if (editing && pipeline.isError) {
    return (
      <Stack>
        <PageHeader title={title} />
        <PipelineLoadError error={pipeline.error} />
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={860}>
      <Anchor component={Link} to={back} size="sm" c="dimmed">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {editing ? 'Back to pipeline' : 'Back to pipelines'}
        </Group>
      </Anchor>
      <PageHeader title={title} description={editing ? (pipeline.data?.name ?? '') : 'Connect a repository and choose when your pipeline runs'} />
      {editing && !pipeline.data ? (
        <Card withBorder radius="md" padding="lg">
          <Stack>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={36} radius="sm" />
            ))}
          </Stack>
        </Card>
      ) : (
        <PipelineForm key={pipelineId ?? 'new'} projectId={projectId} pipelineId={pipelineId} saved={pipeline.data} back={back} />
      )}
    </Stack>
  );
}

/** The form itself, from the saved pipeline's values once they are here (edit) or the spec's defaults. */
function PipelineForm({ projectId, pipelineId, saved, back }: { projectId: string; pipelineId?: string; saved?: Pipeline; back: string }) {
  const navigate = useNavigate();
  const editing = Boolean(pipelineId);
  const form = useForm({
    initialValues: saved ? pipelineFormValues(saved) : EMPTY_PIPELINE_FORM,
    schema: editing ? UpdatePipelineBody : PipelineBody,
    toInput: pipelineFormInput,
  });
  const create = useCreatePipeline(projectId);
  const update = useUpdatePipeline(projectId, pipelineId ?? '');
  const saving = create.isPending || update.isPending;
  const name = form.values.name;

  const submit = form.onSubmit((data) => {
    const onError = (err: unknown) => {
      if (isApiError(err)) form.setServerErrors(err.fields);
      toast.apiError(err);
    };
    if (editing && pipelineId) {
      update.mutate(data as UpdatePipelineBody, {
        onSuccess: () => {
          toast.success(`Pipeline ${name} has been updated`);
          navigate(`/pipelines/${pipelineId}/details`);
        },
        onError,
      });
    } else {
      create.mutate(data as PipelineBody, {
        onSuccess: ({ pipelineId: id }) => {
          toast.success(`Pipeline ${name.trim()} has been created`);
          navigate(`/pipelines/${id}/details`);
        },
        onError,
      });
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid="pipeline-form">
      <Stack gap="lg">
        <PipelineGeneralSection form={form} editing={editing} />
        <PipelineSourceSection form={form} projectId={projectId} />
        <PipelineTriggersSection form={form} />
        <PipelineBuildSection form={form} />
        <Group justify="flex-end">
          <Button variant="default" component={Link} to={back} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {editing ? 'Update Pipeline' : 'Create Pipeline'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
