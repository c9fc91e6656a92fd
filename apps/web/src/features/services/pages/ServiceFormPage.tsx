import { Anchor, Button, Card, Group, Loader, Select, Skeleton, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconArrowLeft, IconBox, IconWorld } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PUBLIC_DOCKER_IMAGE, registryMessages, serviceMessages } from '@gantry/contracts';
import { errorMessage, isApiError } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { EmptyState } from '../../../ui/EmptyState';
import { FormSection } from '../../../ui/FormSection';
import { PageHeader } from '../../../ui/PageHeader';
import { useForm } from '../../../ui/form';
import { useErrorToast } from '../../../ui/use-error-toast';
import { useDockerRegistries, useDockerRepositories } from '../../registries';
import { serviceRoute, servicesRoute } from '../api/keys';
import { useMicroservice } from '../api/get-microservice';
import { useCreateMicroservice, useUpdateMicroservice } from '../api/save-microservice';
import { SchemaEditor } from '../components/SchemaEditor';
import {
  emptyServiceForm,
  formErrorPaths,
  imageRequiredMessage,
  isPublicImage,
  registryChoiceError,
  serviceFormFrom,
  serviceFormInput,
  serviceFormSchema,
  type ServiceFormValues,
} from '../lib/service-form';

const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/**
 * /kubernetes/services/create ('Create New Service', then to the service) and /:microserviceName/edit ('Update
 * Service', name locked, then to the list): the microservice form of spec §5, validated on submit.
 */
export default function ServiceFormPage() {
  const { microserviceName } = useParams();
  const editing = Boolean(microserviceName);
  const projectId = useCurrentProject()?.id ?? '';
  const navigate = useNavigate();
  const service = useMicroservice(projectId, microserviceName);
  const registries = useDockerRegistries(projectId);
  const create = useCreateMicroservice(projectId);
  const update = useUpdateMicroservice(projectId, microserviceName ?? '');
  const form = useForm({
    initialValues: emptyServiceForm(),
    schema: serviceFormSchema(editing),
    toInput: (v: ServiceFormValues) => serviceFormInput(v, editing),
  });
  const [loaded, setLoaded] = useState(!editing);
  const saving = create.isPending || update.isPending;
  const registry = form.values.registry;
  const publicImage = isPublicImage(registry);
  const repositories = useDockerRepositories(projectId, registry && !publicImage ? registry : null);
  useErrorToast(service.error);
  useErrorToast(registries.error);
  useErrorToast(repositories.error, registryMessages.repositoriesFailed);

  // The edited service fills the form once; a new one starts on the project's default registry.
  const { reset } = form;
  useEffect(() => {
    if (editing && service.data && !loaded) {
      reset(serviceFormFrom(service.data));
      setLoaded(true);
    }
  }, [editing, service.data, loaded, reset]);
  const defaultRegistry = registries.data?.find((r) => r.isDefault)?.registryName ?? null;
  const { setValues } = form;
  useEffect(() => {
    if (!editing && defaultRegistry) setValues((v) => (v.registry ? {} : { registry: defaultRegistry }));
  }, [editing, defaultRegistry, setValues]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const body = form.validate();
    const errors = formErrorPaths(form.getState().errors);
    const registryError = registryChoiceError(form.values);
    if (registryError) errors.registry = registryError;
    if (errors.imageRepository) errors.imageRepository = imageRequiredMessage(form.values);
    form.setErrors(errors);
    if (!body || registryError) return;
    const onError = (err: unknown) => {
      if (isApiError(err) && err.fields) form.setErrors(formErrorPaths(Object.fromEntries(Object.entries(err.fields).map(([k, v]) => [k, v[0]]))));
      toast.apiError(err);
    };
    if (editing) {
      update.mutate(body, {
        onSuccess: () => {
          toast.success(serviceMessages.updated(microserviceName ?? ''));
          navigate(servicesRoute);
        },
        onError,
      });
    } else {
      const name = form.values.name.trim();
      create.mutate(
        { ...body, name },
        {
          onSuccess: () => {
            toast.success(serviceMessages.created(name));
            navigate(serviceRoute(name));
          },
          onError,
        },
      );
    }
  };

  const title = editing ? 'Update Service' : 'Create New Service';
  const backLink = (
    <Anchor component={Link} to={editing ? serviceRoute(microserviceName ?? '') : servicesRoute} size="sm" c="dimmed">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        {editing ? 'Back to the service' : 'Back to services'}
      </Group>
    </Anchor>
  );

  if (editing && service.isError) {
    return (
      <Stack gap="lg" maw={960}>
        {backLink}
        <PageHeader title={title} />
        <Card withBorder radius="md" padding={0}>
          <EmptyState title="This service could not be loaded" description={errorMessage(service.error)} />
        </Card>
      </Stack>
    );
  }

  const registryOptions = [
    ...(registries.data ?? []).map((r) => ({ value: r.registryName, label: r.isDefault ? `${r.registryName} (default)` : r.registryName })),
    { value: PUBLIC_DOCKER_IMAGE, label: PUBLIC_DOCKER_IMAGE },
  ];
  const repositoryOptions = (repositories.data ?? []).map((r) => r.name);
  const current = form.values.imageRepository;
  if (current && !publicImage && !repositoryOptions.includes(current)) repositoryOptions.unshift(current);

  return (
    <Stack gap="lg" maw={960}>
      {backLink}
      <PageHeader
        title={title}
        description={editing ? microserviceName : 'A container image your team deploys to Kubernetes clusters, with the inputs it takes'}
      />
      {!loaded ? (
        <Card withBorder radius="md" padding="lg" data-testid="service-form-skeleton">
          <Stack>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={36} radius="sm" />
            ))}
          </Stack>
        </Card>
      ) : (
        <form onSubmit={submit} noValidate data-testid="service-form">
          <Stack gap="lg">
            <FormSection title="General">
              <TextInput
                label="Name"
                placeholder="orders-api"
                withAsterisk={!editing}
                disabled={editing}
                description={editing ? 'The name of a service cannot be changed' : '2 to 30 characters: lowercase letters, digits, "-", "." or "~"'}
                styles={MONO}
                {...form.getInputProps('name')}
              />
              <Textarea
                label="Description"
                withAsterisk
                autosize
                minRows={2}
                maxRows={5}
                description={`${form.values.description.length}/255`}
                {...form.getInputProps('description')}
              />
            </FormSection>

            <FormSection title="Image" description="Where the service's container image comes from">
              <Select
                label="Docker registry"
                placeholder={registries.isPending ? 'Loading registries…' : 'Select a registry'}
                withAsterisk
                data={registryOptions}
                allowDeselect={false}
                leftSection={publicImage ? <IconWorld size={16} /> : registry ? <IconBox size={16} /> : undefined}
                rightSection={registries.isPending ? <Loader size={14} /> : undefined}
                value={registry}
                onChange={(v) => form.setValues({ registry: v, imageRepository: null })}
                error={form.errors.registry}
                description={
                  registries.isSuccess && registries.data.length === 0 ? (
                    <>
                      No registries yet:{' '}
                      <Anchor component={Link} to="/kubernetes/docker-registries/add" size="xs">
                        add one
                      </Anchor>
                      , or use a public image.
                    </>
                  ) : undefined
                }
              />
              {publicImage ? (
                <TextInput
                  label="Docker image"
                  withAsterisk
                  placeholder="nginx or ghcr.io/org/app"
                  description="A public image reference without its tag; the version is chosen at deploy"
                  styles={MONO}
                  value={current ?? ''}
                  onChange={(e) => form.setFieldValue('imageRepository', e.currentTarget.value)}
                  error={form.errors.imageRepository}
                />
              ) : (
                <Select
                  label="Image repository"
                  withAsterisk
                  searchable
                  disabled={!registry}
                  placeholder={!registry ? 'Select a registry first' : repositories.isFetching ? 'Loading repositories…' : 'Select a repository'}
                  nothingFoundMessage={repositories.isError ? registryMessages.repositoriesFailed : 'No repositories in this registry'}
                  rightSection={repositories.isFetching ? <Loader size={14} /> : undefined}
                  data={repositoryOptions}
                  value={current}
                  onChange={(v) => form.setFieldValue('imageRepository', v)}
                  error={form.errors.imageRepository}
                  styles={MONO}
                />
              )}
            </FormSection>

            <FormSection title="Readme" description="Shown on the service's page, in Markdown">
              <Textarea
                aria-label="Readme"
                autosize
                minRows={4}
                maxRows={16}
                styles={MONO}
                placeholder="How to use this service…"
                {...form.getInputProps('readme')}
              />
            </FormSection>

            <FormSection title="Parameters" description="What the service takes as environment variables and what it offers">
              <SchemaEditor form={form} />
            </FormSection>

            <Group justify="flex-end">
              <Button variant="default" component={Link} to={editing ? serviceRoute(microserviceName ?? '') : servicesRoute} disabled={saving}>
                Cancel
              </Button>
              <Button type="submit" loading={saving}>
                {editing ? 'Update Service' : 'Create Service'}
              </Button>
            </Group>
            {form.errors._ && (
              <Text c="red" size="sm">
                {form.errors._}
              </Text>
            )}
          </Stack>
        </form>
      )}
    </Stack>
  );
}
