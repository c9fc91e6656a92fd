import { Anchor, Button, Card, Group, Loader, PasswordInput, Select, Skeleton, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  GITLAB_HIERARCHY_NAMES,
  GITLAB_HIERARCHY_TYPES,
  REGISTRY_CREDENTIAL_KEYS,
  SENSITIVE_PLACEHOLDER,
  registryMessages,
  type RegistryCredential,
} from '@gantry/contracts';
import { errorMessage, isApiError } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { EmptyState } from '../../../ui/EmptyState';
import { FormSection } from '../../../ui/FormSection';
import { PageHeader } from '../../../ui/PageHeader';
import { useCreateDockerRegistry } from '../api/create-registry';
import { useDockerRegistry } from '../api/get-registry';
import { useUpdateDockerRegistry } from '../api/update-registry';
import { ECR_REGION_OPTIONS, PROVIDER_LOOK, PROVIDER_OPTIONS } from '../components/providers';
import {
  emptyRegistryForm,
  isRegistryProvider,
  registryFormFrom,
  serverFieldErrors,
  switchProvider,
  validateRegistryForm,
  type RegistryFormErrors,
  type RegistryFormState,
} from '../lib/registry-form';

const LIST_PATH = '/kubernetes/docker-registries';
const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };
const HIERARCHY_OPTIONS = GITLAB_HIERARCHY_TYPES.map((t) => ({ value: t, label: GITLAB_HIERARCHY_NAMES[t] }));

/** Hints under the credential inputs. */
const PLACEHOLDERS: Record<string, string> = {
  registry_url: 'registry.example.com:5000',
  aws_account_id: '123456789012',
  aws_access_key_id: 'AKIA…',
  gitlab_id: '1234567',
};
const DESCRIPTIONS: Record<string, string> = {
  registry_url: 'A registry host with an optional port; prefix http:// for a registry served over plain HTTP',
  gitlab_id: 'The numeric id of the GitLab group or project',
};

/**
 * /kubernetes/docker-registries/add and /:registryName/edit (spec delivery §2, §5): General (name) and
 * Registry (provider, its credentials, default switch). Validates on submit only; on edit name and
 * provider are locked and sensitive values left as '(sensitive)' are not sent.
 */
export default function RegistryFormPage() {
  const { registryName } = useParams();
  const editing = Boolean(registryName);
  const projectId = useCurrentProject()?.id ?? '';
  const navigate = useNavigate();
  const registry = useDockerRegistry(projectId, registryName);
  const create = useCreateDockerRegistry(projectId);
  const update = useUpdateDockerRegistry(projectId, registryName ?? '');
  const [form, setForm] = useState<RegistryFormState>(emptyRegistryForm);
  const [loaded, setLoaded] = useState(!editing);
  const [errors, setErrors] = useState<RegistryFormErrors>({});
  const saving = create.isPending || update.isPending;

  useEffect(() => {
    if (editing && registry.data && !loaded) {
      setForm(registryFormFrom(registry.data));
      setLoaded(true);
    }
  }, [editing, registry.data, loaded]);

  useEffect(() => {
    if (registry.error) toast.apiError(registry.error);
  }, [registry.error]);

  const setCredential = (key: string, value: string) => {
    setForm((f) => ({ ...f, credentials: { ...f.credentials, [key]: value } }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = validateRegistryForm(form, editing);
    if (!result.ok) {
      setErrors(result.errors);
      if (result.errors._) toast.error(result.errors._);
      return;
    }
    setErrors({});
    const sent: RegistryCredential[] = result.body.credentials;
    const onError = (err: unknown) => {
      if (isApiError(err) && err.fields) setErrors(serverFieldErrors(err.fields, sent));
      toast.apiError(err);
    };
    if (result.mode === 'edit') {
      update.mutate(result.body, {
        onSuccess: () => {
          toast.success(registryMessages.edited(form.name));
          navigate(LIST_PATH);
        },
        onError,
      });
    } else {
      const name = result.body.name;
      create.mutate(result.body, {
        onSuccess: () => {
          toast.success(registryMessages.created(name));
          navigate(LIST_PATH);
        },
        onError,
      });
    }
  };

  const title = editing ? 'Edit Docker Registry' : 'Add Docker Registry';
  const provider = isRegistryProvider(form.provider) ? form.provider : null;
  const keys = provider ? REGISTRY_CREDENTIAL_KEYS[provider] : [];
  const backLink = (
    <Anchor component={Link} to={LIST_PATH} size="sm" c="dimmed">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        Back to Docker registries
      </Group>
    </Anchor>
  );

  if (editing && registry.isError) {
    return (
      <Stack gap="lg" maw={860}>
        {backLink}
        <PageHeader title={title} />
        <Card withBorder radius="md" padding={0}>
          <EmptyState title="This registry could not be loaded" description={errorMessage(registry.error)} />
        </Card>
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={860}>
      {backLink}
      <PageHeader title={title} description={editing ? registryName : 'Connect a container registry your pipelines push to and your services pull from'} />
      {!loaded ? (
        <Card withBorder radius="md" padding="lg" data-testid="registry-form-skeleton">
          <Stack>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={36} radius="sm" />
            ))}
          </Stack>
        </Card>
      ) : (
        <form onSubmit={submit} noValidate data-testid="registry-form">
          <Stack gap="lg">
            <FormSection title="General">
              <TextInput
                label="Name"
                placeholder="my-registry"
                withAsterisk={!editing}
                disabled={editing}
                value={form.name}
                onChange={(e) => {
                  const name = e.currentTarget.value;
                  setForm((f) => ({ ...f, name }));
                  setErrors((er) => (er.name ? { ...er, name: undefined } : er));
                }}
                error={errors.name}
                description={
                  editing ? 'The name of a registry cannot be changed' : 'Lowercase letters, digits, "-" or ".", starting and ending with a letter or digit'
                }
                styles={MONO}
              />
            </FormSection>

            <FormSection title="Registry" description="Where the registry lives and how Gantry signs in to it">
              <Select
                label="Docker provider"
                placeholder="Select a provider"
                withAsterisk={!editing}
                disabled={editing}
                data={PROVIDER_OPTIONS}
                value={form.provider}
                onChange={(v) => {
                  setForm((f) => switchProvider(f, v));
                  setErrors({});
                }}
                allowDeselect={false}
                error={errors.provider ?? (form.provider && !provider ? registryMessages.unsupportedProvider : undefined)}
                leftSection={provider ? PROVIDER_LOOK[provider].icon(16) : undefined}
                renderOption={({ option }) => {
                  const look = isRegistryProvider(option.value) ? PROVIDER_LOOK[option.value] : undefined;
                  return (
                    <Group gap="sm" wrap="nowrap">
                      {look?.icon(18)}
                      <Stack gap={0}>
                        <Text size="sm">{option.label}</Text>
                        <Text size="xs" c="dimmed">
                          {look?.description}
                        </Text>
                      </Stack>
                    </Group>
                  );
                }}
                description={provider && !editing ? PROVIDER_LOOK[provider].description : undefined}
              />

              {keys.map(({ key, label, sensitive }) => {
                const common = { label, error: errors[key], withAsterisk: !(editing && sensitive) };
                const value = form.credentials[key] ?? '';
                if (key === 'aws_region') {
                  return (
                    <Select
                      key={key}
                      {...common}
                      data={ECR_REGION_OPTIONS}
                      value={value || null}
                      onChange={(v) => setCredential(key, v ?? '')}
                      searchable
                      allowDeselect={false}
                      nothingFoundMessage="No such region"
                    />
                  );
                }
                if (key === 'gitlab_hierarchy_type') {
                  return (
                    <Select
                      key={key}
                      {...common}
                      data={HIERARCHY_OPTIONS}
                      value={value || null}
                      onChange={(v) => setCredential(key, v ?? '')}
                      allowDeselect={false}
                    />
                  );
                }
                if (sensitive) {
                  return (
                    <PasswordInput
                      key={key}
                      {...common}
                      value={value}
                      onChange={(e) => setCredential(key, e.currentTarget.value)}
                      placeholder={editing ? SENSITIVE_PLACEHOLDER : undefined}
                      description={editing ? 'Stored encrypted and never shown again; leave it as is to keep it, or type a new one' : undefined}
                      autoComplete="new-password"
                    />
                  );
                }
                return (
                  <TextInput
                    key={key}
                    {...common}
                    value={value}
                    onChange={(e) => setCredential(key, e.currentTarget.value)}
                    placeholder={PLACEHOLDERS[key]}
                    description={DESCRIPTIONS[key]}
                    autoComplete="off"
                    styles={key === 'registry_url' || key.startsWith('aws_') || key === 'gitlab_id' ? MONO : undefined}
                  />
                );
              })}

              <Switch
                label="Default registry"
                description="New Kubernetes services use the default registry unless they choose another; a project has one default"
                checked={form.isDefault}
                onChange={(e) => {
                  const isDefault = e.currentTarget.checked;
                  setForm((f) => ({ ...f, isDefault }));
                }}
                mt={4}
              />
            </FormSection>

            <Group justify="flex-end">
              <Button variant="default" component={Link} to={LIST_PATH} disabled={saving}>
                Cancel
              </Button>
              {/* The busy label is the spec's text ('Creating..' / 'Updating..'), so the button stays readable rather than a spinner. */}
              <Button type="submit" disabled={saving} leftSection={saving ? <Loader size={14} color="gray" /> : undefined}>
                {editing ? (update.isPending ? 'Updating..' : 'Update Registry') : create.isPending ? 'Creating..' : 'Create Registry'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
