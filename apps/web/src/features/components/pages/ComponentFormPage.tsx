import { Alert, Anchor, Button, Card, Group, Skeleton, Stack } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { ComponentBody, UpdateComponentBody, type ComponentDetails } from '@gantry/contracts';
import { errorMessage, isApiError } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { useForm } from '../../../ui/form';
import { PageHeader } from '../../../ui/PageHeader';
import { useErrorToast } from '../../../ui/use-error-toast';
import { useCreateComponent } from '../api/create-component';
import { useComponent } from '../api/get-component';
import { useUpdateComponent } from '../api/update-component';
import { ComponentBuildSection } from '../components/ComponentBuildSection';
import { ComponentGeneralSection } from '../components/ComponentGeneralSection';
import { ComponentInfrastructureSection } from '../components/ComponentInfrastructureSection';
import { EMPTY_COMPONENT_FORM, componentFormInput, componentFormValues } from '../components/component-form';

/** /components/create and /components/:componentId/edit (spec §2, §5): validated on submit with the server's schema. */
export default function ComponentFormPage() {
  const { componentId } = useParams();
  const editing = Boolean(componentId);
  const projectId = useCurrentProject()?.id ?? '';
  const component = useComponent(projectId, componentId);
  useErrorToast(component.error);

  const back = editing ? `/components/${componentId}` : '/components';
  return (
    <Stack gap="lg" maw={860}>
      <Anchor component={Link} to={back} size="sm" c="dimmed">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {editing ? 'Back to component' : 'Back to components'}
        </Group>
      </Anchor>
      <PageHeader
        title={editing ? 'Edit Component' : 'Create Component'}
        description={editing ? (component.data?.name ?? '') : 'A reusable piece of infrastructure built by one of your pipelines'}
      />
      {editing && component.isError ? (
        <Alert color="red" variant="light" radius="md" icon={<IconAlertTriangle size={18} />}>
          {errorMessage(component.error)}
        </Alert>
      ) : editing && !component.data ? (
        <Card withBorder radius="md" padding="lg">
          <Stack>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={36} radius="sm" />
            ))}
          </Stack>
        </Card>
      ) : (
        <ComponentForm key={componentId ?? 'new'} projectId={projectId} componentId={componentId} saved={editing ? component.data : undefined} back={back} />
      )}
    </Stack>
  );
}

/** The form itself, from the saved component's values once they are here (edit) or empty. */
function ComponentForm({ projectId, componentId, saved, back }: { projectId: string; componentId?: string; saved?: ComponentDetails; back: string }) {
  const navigate = useNavigate();
  const editing = Boolean(componentId);
  const form = useForm({
    initialValues: saved ? componentFormValues(saved) : EMPTY_COMPONENT_FORM,
    schema: editing ? UpdateComponentBody : ComponentBody,
    toInput: componentFormInput,
  });
  const create = useCreateComponent(projectId);
  const update = useUpdateComponent(projectId, componentId ?? '');
  const saving = create.isPending || update.isPending;
  const notEditable = Boolean(saved && !saved.editable);
  const name = form.values.name;

  const submit = form.onSubmit((data) => {
    const onError = (err: unknown) => {
      if (isApiError(err)) form.setServerErrors(err.fields);
      toast.apiError(err);
    };
    if (editing && componentId) {
      update.mutate(data as UpdateComponentBody, {
        onSuccess: () => {
          toast.success(`Component ${name} has been updated`);
          navigate(`/components/${componentId}`);
        },
        onError,
      });
    } else {
      create.mutate(data as ComponentBody, {
        onSuccess: ({ componentId: id }) => {
          toast.success(`Component ${name.trim()} has been created`);
          navigate(`/components/${id}`);
        },
        onError,
      });
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid="component-form">
      <Stack gap="lg">
        {notEditable && (
          <Alert color="yellow" variant="light" radius="md" icon={<IconAlertTriangle size={18} />}>
            Only the project that owns this component can change it.
          </Alert>
        )}
        <ComponentGeneralSection form={form} editing={editing} />
        <ComponentInfrastructureSection form={form} />
        <ComponentBuildSection form={form} projectId={projectId} saved={saved} />
        <Group justify="flex-end">
          <Button variant="default" component={Link} to={back} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving || notEditable}>
            {editing ? (saving ? 'Updating..' : 'Update Component') : saving ? 'Creating..' : 'Create Component'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
