import {
  ActionIcon,
  Alert,
  Autocomplete,
  Badge,
  Box,
  Button,
  Divider,
  Group,
  LoadingOverlay,
  Modal,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Slider,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconPlus, IconRocket, IconTrash } from '@tabler/icons-react';
import { useEffect, useMemo, useRef } from 'react';
import { UTILIZATION_SLIDER, deployMessages, serviceMessages, type Microservice } from '@gantry/contracts';
import { errorMessage, isApiError } from '../../../api/errors';
import { toast } from '../../../api/toast';
import { useForm } from '../../../ui/form';
import { formatDate } from '../../../ui/dayjs';
import { useNamespaces } from '../../clusters';
import { useDeployMicroservice, useDeploymentStatus, type ServiceInCluster } from '../api/deployments';
import { useMicroserviceVersions } from '../api/list-versions';
import { canAddEnvRow, deployFormInitial, deployFormInput, deployFormSchema, rebaseDeployForm, toDeployBody, type DeployFormValues } from '../lib/deploy-form';

const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };
const MARKS = [0, 20, 40, 60, 80, 100].map((value) => ({ value, label: `${value}%` }));
const MARK_LABEL_INSET = 16;
/** Stuck to the foot of the dialog's scrolling content, over the fields that scroll under it (the loading overlay is over it). */
const FOOTER = {
  position: 'sticky',
  bottom: 0,
  zIndex: 2,
  background: 'var(--mantine-color-body)',
  borderTop: '1px solid var(--mantine-color-default-border)',
} as const;

export interface DeployDialogProps {
  projectId: string;
  service: Microservice | null;
  clusterId: string;
  clusterName: string;
  /** Pre-given (a dashboard tab, the cluster's associated namespace): not asked for. */
  namespace?: string | null;
  onClose: () => void;
  /** After a successful deploy (the dialog has closed, refreshed and toasted). */
  onDeployed?: (target: ServiceInCluster) => void;
}

/** A field's description under its input (the fields of a row keep their inputs on one line, and their errors too). */
const DESCRIPTION_UNDER: ('label' | 'input' | 'description' | 'error')[] = ['label', 'input', 'description', 'error'];

/** Deploy failure text (spec §8): the message, and the cluster's own reason on a new line when present. */
export function deployErrorText(error: unknown): string {
  const k = isApiError(error) ? (error.body.kubernetesError as { message?: unknown } | undefined) : undefined;
  const reason = typeof k?.message === 'string' && k.message ? `\n${k.message}` : '';
  return errorMessage(error) + reason;
}

/**
 * The deploy dialog (spec §5, §9): version (from the registry, 10 at a time, 'latest' first, a 503 retried),
 * namespace unless pre-given, initial / max memory and CPU, min / max pods, CPU and memory utilization, environment
 * variable rows and the service's required inputs — the values of the last deploy there over the defaults. Deploy
 * is disabled while loading; success closes, refreshes and toasts.
 */
export function DeployDialog(props: DeployDialogProps) {
  const { service, onClose } = props;
  return (
    <Modal
      opened={Boolean(service)}
      onClose={onClose}
      size="xl"
      radius="md"
      title={
        <Group gap="xs">
          <IconRocket size={18} color="var(--mantine-color-indigo-6)" />
          <Text fw={650}>
            Deploy {service?.name} to {props.clusterName}
          </Text>
        </Group>
      }
    >
      {service && <DeployForm {...props} service={service} key={`${service.name}@${props.clusterId}`} />}
    </Modal>
  );
}

function DeployForm({
  projectId,
  service,
  clusterId,
  clusterName,
  namespace: givenNamespace,
  onClose,
  onDeployed,
}: DeployDialogProps & { service: Microservice }) {
  const schema = service.schema;
  const form = useForm({
    initialValues: deployFormInitial(schema, [], givenNamespace ?? null),
    schema: useMemo(() => deployFormSchema(schema), [schema]),
    toInput: deployFormInput,
  });
  const namespace = form.values.namespace;
  const versions = useMicroserviceVersions(projectId, service.name);
  const namespaces = useNamespaces(projectId, clusterId, !givenNamespace);
  const target = { clusterId, namespace: namespace ?? '', name: service.name };
  const status = useDeploymentStatus(projectId, target, { enabled: Boolean(namespace) });
  const deploy = useDeployMicroservice(projectId);

  // The last deploy's configuration in this namespace replaces the defaults (spec §9) where the user has not typed
  // meanwhile; a 404 counts as none (spec §4).
  const { setValues, getState } = form;
  const configurations = status.data?.configurations;
  const statusFailed = status.isError;
  const base = useRef(form.values);
  useEffect(() => {
    if (!configurations && !statusFailed) return;
    const next = deployFormInitial(schema, configurations ?? []);
    setValues(rebaseDeployForm(getState().values, base.current, next));
    base.current = next;
  }, [configurations, statusFailed, schema, setValues, getState]);
  useEffect(() => {
    if (status.error && !(isApiError(status.error) && status.error.status === 404)) toast.apiError(status.error);
  }, [status.error]);
  useEffect(() => {
    if (versions.isError) toast.apiError(versions.error);
  }, [versions.isError, versions.error]);

  const loadingStatus = Boolean(namespace) && status.isFetching && !status.data;
  const loading = loadingStatus || deploy.isPending;
  const rows = form.values.environmentVariables;

  const addRow = () => {
    const incomplete = rows.findIndex((r) => !canAddEnvRow([r]));
    if (incomplete >= 0) {
      form.setFieldError(`environmentVariables.${incomplete}.${rows[incomplete]!.key.trim() ? 'value' : 'key'}`, deployMessages.envRowIncomplete);
      return;
    }
    form.insertListItem('environmentVariables', { key: '', value: '' });
  };

  const submit = form.onSubmit((parsed) => {
    const body = toDeployBody(parsed, schema);
    deploy.mutate(
      { target: { clusterId, namespace: parsed.namespace, name: service.name }, body },
      {
        onSuccess: () => {
          toast.success(serviceMessages.deployed(service.name, clusterName));
          onClose();
          onDeployed?.({ clusterId, namespace: parsed.namespace, name: service.name });
        },
        onError: (e) => {
          if (isApiError(e) && e.fields) form.setServerErrors(e.fields);
          toast.error(deployErrorText(e));
        },
      },
    );
  });
  const onSubmit = (e: React.FormEvent) => {
    submit(e);
    // Spec §5: the schema inputs' messages show per field and, joined, in a toast.
    const inputErrors = Object.entries(form.getState().errors).flatMap(([k, v]) => (k.startsWith('inputs.') && v ? [v] : []));
    toast.formErrors(inputErrors);
  };

  const versionOptions = versions.tags.map((t) => ({ value: t.name, label: t.date ? `${t.name} · ${formatDate(t.date)}` : t.name }));
  const versionPlaceholder = versions.retrying
    ? 'The registry is not reachable yet, retrying…'
    : versions.loading
      ? 'Loading versions…'
      : versions.isError
        ? errorMessage(versions.error)
        : 'Select a version';
  const num = (field: keyof DeployFormValues['autoScaling'], label: string, unit: string, description?: string) => (
    <NumberInput
      label={label}
      withAsterisk
      rightSection={
        <Text size="xs" c="dimmed" pr={8}>
          {unit}
        </Text>
      }
      rightSectionWidth={56}
      allowDecimal={false}
      description={description}
      {...form.getInputProps(`autoScaling.${field}`)}
    />
  );

  return (
    <form onSubmit={onSubmit} noValidate data-testid="deploy-form">
      <Stack gap="md" pos="relative">
        <LoadingOverlay visible={loadingStatus} zIndex={5} overlayProps={{ blur: 1 }} loaderProps={{ size: 'sm' }} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {service.registry ? (
            <Select
              label="Version"
              withAsterisk
              searchable
              data={versionOptions}
              placeholder={versionPlaceholder}
              nothingFoundMessage={versions.loading ? 'Loading versions…' : 'No versions in the repository'}
              rightSection={
                versions.loading || versions.retrying ? (
                  <Text size="xs" c="dimmed">
                    …
                  </Text>
                ) : undefined
              }
              styles={MONO}
              {...form.getInputProps('version')}
            />
          ) : (
            <Autocomplete
              label="Version"
              withAsterisk
              placeholder={versionPlaceholder}
              description="The tag of the public image"
              inputWrapperOrder={DESCRIPTION_UNDER}
              data={versionOptions.map((o) => o.value)}
              styles={MONO}
              value={form.values.version ?? ''}
              onChange={(v) => form.setFieldValue('version', v)}
              error={form.errors.version}
            />
          )}
          {givenNamespace ? (
            <TextInput label="Namespace" value={givenNamespace} disabled styles={MONO} />
          ) : (
            <Select
              label="Namespace"
              withAsterisk
              searchable
              data={namespaces.data ?? []}
              placeholder={namespaces.isPending ? 'Loading namespaces…' : 'Select a namespace'}
              nothingFoundMessage={namespaces.isError ? errorMessage(namespaces.error) : 'No namespaces'}
              // beside a public image's Version, whose description lies under its field, this one has its own there:
              // without it, 'Please select a namespace' stood a line above 'Please select a version'
              {...(service.registry ? {} : { description: `A namespace of ${clusterName}`, inputWrapperOrder: DESCRIPTION_UNDER })}
              styles={MONO}
              {...form.getInputProps('namespace')}
            />
          )}
        </SimpleGrid>
        {status.data?.deployed && (
          <Alert variant="light" color="blue" radius="md" p="xs">
            <Text size="xs">
              {service.name} runs version <b>{status.data.version}</b> in {namespace}: deploying replaces it; the settings below are the ones in force.
            </Text>
          </Alert>
        )}

        <Divider label="Resources" labelPosition="left" />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {num('memory', 'Initial memory', 'Mi')}
          {num('maxMemory', 'Max memory', 'Mi')}
          {num('cpu', 'Initial CPU', 'milliCPU')}
          {num('maxCpu', 'Max CPU', 'milliCPU')}
        </SimpleGrid>

        <Divider label="Autoscaling" labelPosition="left" />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {num('minReplicas', 'Min scaled pods', 'pods')}
          {num('maxReplicas', 'Max scaled pods', 'pods')}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl" pb="md">
          {(['cpuUtilization', 'memoryUtilization'] as const).map((f) => (
            <Stack key={f} gap={4}>
              <Group justify="space-between">
                <Text size="sm" fw={500}>
                  {f === 'cpuUtilization' ? 'CPU utilization' : 'Memory utilization'}
                </Text>
                <Badge variant="light" radius="sm">
                  {form.values.autoScaling[f]}%
                </Badge>
              </Group>
              {/* inset by half a mark label: the 0% and 100% labels are centred on the track's ends */}
              <Box px={MARK_LABEL_INSET}>
                <Slider
                  aria-label={f === 'cpuUtilization' ? 'CPU utilization' : 'Memory utilization'}
                  min={UTILIZATION_SLIDER.min}
                  max={UTILIZATION_SLIDER.max}
                  step={UTILIZATION_SLIDER.step}
                  marks={MARKS}
                  label={(v) => `${v}%`}
                  value={Number(form.values.autoScaling[f]) || 0}
                  onChange={(v) => form.setFieldValue(`autoScaling.${f}`, v)}
                />
              </Box>
            </Stack>
          ))}
        </SimpleGrid>

        {schema.inputs.length > 0 && (
          <>
            <Divider label="Inputs" labelPosition="left" />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {schema.inputs.map((i) => {
                const common = {
                  key: i.name,
                  label: i.name,
                  description: i.description || undefined,
                  withAsterisk: i.required,
                  placeholder: i.default ?? undefined,
                  styles: MONO,
                  value: form.values.inputs[i.name] ?? '',
                  onChange: (e: React.ChangeEvent<HTMLInputElement>) => form.setFieldValue(`inputs.${i.name}`, e.currentTarget.value),
                  error: form.errors[`inputs.${i.name}`],
                };
                return i.sensitive ? <PasswordInput {...common} autoComplete="new-password" /> : <TextInput {...common} />;
              })}
            </SimpleGrid>
          </>
        )}

        <Divider label="Environment variables" labelPosition="left" />
        <Stack gap="xs">
          {rows.map((_, i) => (
            <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
              <TextInput
                aria-label={`Variable ${i + 1} key`}
                placeholder="KEY"
                styles={MONO}
                style={{ flex: 1 }}
                {...form.getInputProps(`environmentVariables.${i}.key`)}
              />
              <TextInput
                aria-label={`Variable ${i + 1} value`}
                placeholder="value"
                styles={MONO}
                style={{ flex: 2 }}
                {...form.getInputProps(`environmentVariables.${i}.value`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mt={6}
                aria-label={`Remove variable ${i + 1}`}
                onClick={() => form.removeListItem('environmentVariables', i)}
              >
                <IconTrash size={15} />
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={addRow}>
              Add variable
            </Button>
          </Group>
        </Stack>

        {versions.isError && (
          <Alert variant="light" color="red" icon={<IconAlertTriangle size={16} />} p="xs">
            <Text size="xs">{errorMessage(versions.error)}</Text>
          </Alert>
        )}
        {/* the actions stay at the dialog's foot while its fields scroll (taller than an 800 px window: Deploy was below it) */}
        <Group justify="flex-end" mt="sm" py="sm" style={FOOTER}>
          <Button variant="default" onClick={onClose} disabled={deploy.isPending}>
            Cancel
          </Button>
          <Button type="submit" leftSection={<IconRocket size={16} />} loading={deploy.isPending} disabled={loading}>
            Deploy
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
