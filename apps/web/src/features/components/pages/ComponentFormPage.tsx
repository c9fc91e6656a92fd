import { Alert, Anchor, Button, Card, Group, Select, Skeleton, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft } from '@tabler/icons-react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  ComponentBody,
  INFRA_CLOUD_PROVIDERS,
  UpdateComponentBody,
  componentMessages,
  type ComponentDetails,
  type IacTool,
  type InfraCloudProvider,
} from '@gantry/contracts';
import { errorMessage, isApiError } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { PageHeader } from '../../../ui/PageHeader';
import { useCreateComponent } from '../api/create-component';
import { useComponent } from '../api/get-component';
import { usePipelineArtifactSteps } from '../hooks/use-pipeline-artifact-steps';
import { usePipelineList } from '../../pipelines';
import { useUpdateComponent } from '../api/update-component';
import { useErrorToast } from '../../../ui/use-error-toast';
import { FORM_TYPES, IAC_LABELS, providerLabel, typeLabel } from '../lib/labels';
import { FormSection } from '../../../ui/FormSection';
import { firstFieldMessages, firstIssueMessages } from '../../../ui/form-errors';

type FormState = {
  name: string;
  type: string | null;
  description: string;
  cloudProvider: InfraCloudProvider | null;
  infrastructureAsCodeTool: IacTool;
  pipelineId: string | null;
  artifactStep: string | null;
};

const EMPTY: FormState = { name: '', type: null, description: '', cloudProvider: null, infrastructureAsCodeTool: 'terraform', pipelineId: null, artifactStep: null };

const fromComponent = (c: ComponentDetails): FormState => ({
  name: c.name,
  type: c.type,
  description: c.description,
  cloudProvider: c.cloudProvider,
  infrastructureAsCodeTool: c.infrastructureAsCodeTool,
  pipelineId: c.pipelineId,
  artifactStep: c.artifactStep,
});

/** /components/create and /components/:componentId/edit (spec §2, §5): validated on submit with the server's schema. */
export default function ComponentFormPage() {
  const { componentId } = useParams();
  const editing = Boolean(componentId);
  const projectId = useCurrentProject()?.id ?? '';
  const navigate = useNavigate();
  const component = useComponent(projectId, componentId);
  const pipelines = usePipelineList(projectId, 'name');
  const [form, setForm] = useState<FormState>(EMPTY);
  const [loaded, setLoaded] = useState(!editing);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const steps = usePipelineArtifactSteps(projectId, form.pipelineId);
  const create = useCreateComponent(projectId);
  const update = useUpdateComponent(projectId, componentId ?? '');
  const saving = create.isPending || update.isPending;
  useErrorToast(component.error);
  useErrorToast(pipelines.error);

  useEffect(() => {
    if (editing && component.data && !loaded) {
      setForm(fromComponent(component.data));
      setLoaded(true);
    }
  }, [editing, component.data, loaded]);

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  };

  const typeOptions = useMemo(() => {
    const list: string[] = [...FORM_TYPES];
    // A saved lower-case form stays selectable as it is.
    if (form.type && !list.includes(form.type)) list.push(form.type);
    return list.map((t) => ({ value: t, label: typeLabel(t) }));
  }, [form.type]);

  const pipelineOptions = useMemo(() => {
    const list = (pipelines.data ?? []).map((p) => ({ value: p.id, label: p.name }));
    const saved = component.data;
    if (editing && saved?.pipelineId && !list.some((p) => p.value === saved.pipelineId)) list.unshift({ value: saved.pipelineId, label: saved.pipelineName ?? saved.pipelineId });
    return list;
  }, [pipelines.data, component.data, editing]);

  const artifactSteps = useMemo(() => steps.data?.artifactSteps ?? [], [steps.data]);
  const stepOptions = useMemo(() => {
    const list = artifactSteps.map((s) => ({ value: s.name, label: s.name }));
    if (form.artifactStep && list.length && !list.some((s) => s.value === form.artifactStep)) list.unshift({ value: form.artifactStep, label: form.artifactStep });
    return list;
  }, [artifactSteps, form.artifactStep]);
  const pipelineWithoutArtifactStep = Boolean(form.pipelineId) && (steps.isError || (steps.isSuccess && artifactSteps.length === 0));

  const onProvider = (v: string | null) => {
    const provider = (v as InfraCloudProvider | null) ?? null;
    setForm((f) => ({ ...f, cloudProvider: provider, infrastructureAsCodeTool: provider === 'aws' ? f.infrastructureAsCodeTool : 'terraform' }));
    setErrors((e) => ({ ...e, cloudProvider: undefined, infrastructureAsCodeTool: undefined }));
  };

  const onStep = (v: string | null) => {
    const step = artifactSteps.find((s) => s.name === v);
    // The step decides the tool when the provider lets the user choose (aws).
    setForm((f) => ({ ...f, artifactStep: v, infrastructureAsCodeTool: step && f.cloudProvider === 'aws' ? step.infrastructureAsCodeTool : f.infrastructureAsCodeTool }));
    setErrors((e) => ({ ...e, artifactStep: undefined, infrastructureAsCodeTool: undefined }));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const values = {
      name: form.name,
      type: form.type ?? undefined,
      description: form.description,
      cloudProvider: form.cloudProvider ?? undefined,
      infrastructureAsCodeTool: form.infrastructureAsCodeTool,
      pipelineId: form.pipelineId ?? undefined,
      artifactStep: form.artifactStep ?? '',
    };
    const parsed = editing ? UpdateComponentBody.safeParse(values) : ComponentBody.safeParse(values);
    if (!parsed.success) {
      setErrors(firstIssueMessages(parsed.error));
      return;
    }
    setErrors({});
    const onError = (err: unknown) => {
      if (isApiError(err) && err.fields) setErrors(firstFieldMessages(err.fields));
      toast.apiError(err);
    };
    if (editing && componentId) {
      update.mutate(parsed.data as UpdateComponentBody, {
        onSuccess: () => {
          toast.success(`Component ${form.name} has been updated`);
          navigate(`/components/${componentId}`);
        },
        onError,
      });
    } else {
      create.mutate(parsed.data as ComponentBody, {
        onSuccess: ({ componentId: id }) => {
          toast.success(`Component ${form.name.trim()} has been created`);
          navigate(`/components/${id}`);
        },
        onError,
      });
    }
  };

  const title = editing ? 'Edit Component' : 'Create Component';
  const back = editing ? `/components/${componentId}` : '/components';
  const notEditable = editing && component.data && !component.data.editable;

  return (
    <Stack gap="lg" maw={860}>
      <Anchor component={Link} to={back} size="sm" c="dimmed">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {editing ? 'Back to component' : 'Back to components'}
        </Group>
      </Anchor>
      <PageHeader title={title} description={editing ? form.name : 'A reusable piece of infrastructure built by one of your pipelines'} />
      {editing && component.isError ? (
        <Alert color="red" variant="light" radius="md" icon={<IconAlertTriangle size={18} />}>
          {errorMessage(component.error)}
        </Alert>
      ) : !loaded ? (
        <Card withBorder radius="md" padding="lg">
          <Stack>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={36} radius="sm" />
            ))}
          </Stack>
        </Card>
      ) : (
        <form onSubmit={submit} noValidate data-testid="component-form">
          <Stack gap="lg">
            {notEditable && (
              <Alert color="yellow" variant="light" radius="md" icon={<IconAlertTriangle size={18} />}>
                Only the project that owns this component can change it.
              </Alert>
            )}
            <FormSection title="General">
              <TextInput
                label="Component name"
                placeholder="my-component"
                withAsterisk
                disabled={editing}
                value={form.name}
                onChange={(e) => set('name', e.currentTarget.value)}
                error={errors.name}
                description={editing ? 'The name of a component cannot be changed' : '3 to 30 characters'}
              />
              <Select
                label="Component type"
                placeholder="Select a component type"
                withAsterisk
                data={typeOptions}
                value={form.type}
                onChange={(v) => set('type', v)}
                error={errors.type}
                allowDeselect={false}
                maxDropdownHeight={300}
              />
              <Textarea
                label="Description"
                placeholder="What this component creates and how to use it"
                withAsterisk
                autosize
                minRows={3}
                maxRows={8}
                value={form.description}
                onChange={(e) => set('description', e.currentTarget.value)}
                error={errors.description}
              />
            </FormSection>

            <FormSection title="Infrastructure" description="Where the component runs and how it is deployed">
              <Select
                label="Cloud provider"
                placeholder="Select a cloud provider"
                withAsterisk
                data={INFRA_CLOUD_PROVIDERS.map((p) => ({ value: p, label: providerLabel(p) }))}
                value={form.cloudProvider}
                onChange={onProvider}
                error={errors.cloudProvider}
                allowDeselect={false}
              />
              <Select
                label="Infrastructure as code tool"
                withAsterisk
                disabled={form.cloudProvider !== 'aws'}
                data={[
                  { value: 'terraform', label: IAC_LABELS.terraform },
                  { value: 'cloudformation', label: IAC_LABELS.cloudformation },
                ]}
                value={form.infrastructureAsCodeTool}
                onChange={(v) => set('infrastructureAsCodeTool', (v as IacTool | null) ?? 'terraform')}
                error={errors.infrastructureAsCodeTool}
                allowDeselect={false}
                description={form.cloudProvider !== 'aws' ? 'Cloudformation is available for Amazon Web Services only' : undefined}
              />
            </FormSection>

            <FormSection title="Build" description="The pipeline that builds the component and the step whose output is deployed">
              <Select
                label="Pipeline"
                placeholder={pipelines.isPending ? 'Loading pipelines…' : 'Select a pipeline'}
                withAsterisk
                searchable
                data={pipelineOptions}
                value={form.pipelineId}
                onChange={(v) => {
                  setForm((f) => ({ ...f, pipelineId: v, artifactStep: v === f.pipelineId ? f.artifactStep : null }));
                  setErrors((e) => ({ ...e, pipelineId: undefined, artifactStep: undefined }));
                }}
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
              {form.pipelineId && steps.isPending && <Skeleton height={36} radius="sm" />}
              {stepOptions.length > 0 && (
                <Select
                  label="Artifact step"
                  placeholder="Select the artifact step"
                  withAsterisk
                  data={stepOptions}
                  value={form.artifactStep}
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
              {!form.pipelineId && errors.artifactStep && !errors.pipelineId && (
                <Text size="xs" c="red">
                  {errors.artifactStep}
                </Text>
              )}
            </FormSection>

            <Group justify="flex-end">
              <Button variant="default" component={Link} to={back} disabled={saving}>
                Cancel
              </Button>
              <Button type="submit" disabled={saving || Boolean(notEditable)}>
                {editing ? (saving ? 'Updating..' : 'Update Component') : saving ? 'Creating..' : 'Create Component'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
