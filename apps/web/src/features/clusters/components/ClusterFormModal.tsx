import { Button, Collapse, Group, Modal, PasswordInput, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { IconSteeringWheel } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { clusterMessages, SENSITIVE_PLACEHOLDER, type Cluster } from '@gantry/contracts';
import { errorMessage, isApiError, isPlanLimit } from '../../../api/errors';
import { toast } from '../../../api/toast';
import { useCreateCluster } from '../api/create-cluster';
import { useUpdateCluster } from '../api/update-cluster';
import {
  clusterFormFrom,
  emptyClusterForm,
  serverFieldErrors,
  validateClusterForm,
  type ClusterFormErrors,
  type ClusterFormField,
  type ClusterFormState,
} from '../lib/cluster-form';

const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/**
 * Connect / Edit a cluster (spec delivery §2, §5) — a modal over the list, as the spec shows no route for
 * it. Validates on submit with the contracts' schema; a 400's field errors land on their fields. On edit
 * the name is locked and the token shows '(sensitive)' and is resent only when changed.
 */
export function ClusterFormModal({
  projectId,
  opened,
  cluster,
  onClose,
  onPlanLimit,
  initialName,
}: {
  projectId: string;
  opened: boolean;
  cluster: Cluster | null;
  /** Connect under this name (a cluster page linked before its cluster was connected). */
  initialName?: string;
  onClose: () => void;
  /** A 402 on connect: the list disables Connect with an upgrade hint. */
  onPlanLimit?: (message: string) => void;
}) {
  const editing = Boolean(cluster);
  const create = useCreateCluster(projectId);
  const update = useUpdateCluster(projectId);
  const [form, setForm] = useState<ClusterFormState>(emptyClusterForm);
  const [errors, setErrors] = useState<ClusterFormErrors>({});
  const saving = create.isPending || update.isPending;

  // Each opening starts from the cluster (or blank): nothing typed before lingers.
  useEffect(() => {
    if (!opened) return;
    setForm(cluster ? clusterFormFrom(cluster) : { ...emptyClusterForm(), name: initialName ?? '' });
    setErrors({});
  }, [opened, cluster, initialName]);

  const set = <K extends keyof ClusterFormState>(key: K, value: ClusterFormState[K], field: ClusterFormField = key as ClusterFormField) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = validateClusterForm(form, editing);
    if (!result.ok) {
      setErrors(result.errors);
      if (result.errors._) toast.error(result.errors._);
      return;
    }
    setErrors({});
    const onError = (err: unknown) => {
      if (isApiError(err) && err.fields) setErrors(serverFieldErrors(err.fields));
      toast.apiError(err);
      if (isPlanLimit(err)) {
        onPlanLimit?.(errorMessage(err));
        onClose();
      }
    };
    if (result.mode === 'edit' && cluster) {
      update.mutate(
        { clusterId: cluster.id, body: result.body },
        {
          onSuccess: () => {
            toast.success(clusterMessages.updated(cluster.name));
            onClose();
          },
          onError,
        },
      );
    } else if (result.mode === 'create') {
      const name = result.body.name;
      create.mutate(result.body, {
        onSuccess: () => {
          toast.success(clusterMessages.created(name));
          onClose();
        },
        onError,
      });
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={saving ? () => undefined : onClose}
      size="lg"
      radius="md"
      centered
      title={
        <Group gap="xs">
          <IconSteeringWheel size={20} color="var(--mantine-color-blue-6)" />
          <Text fw={600}>{editing ? 'Edit Kubernetes cluster' : 'Connect Kubernetes'}</Text>
        </Group>
      }
    >
      <form onSubmit={submit} noValidate data-testid="cluster-form">
        <Stack gap="md">
          <TextInput
            label="Name"
            placeholder="production"
            withAsterisk={!editing}
            disabled={editing}
            value={form.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            error={errors.name}
            description={editing ? 'The name of a cluster cannot be changed' : 'Lowercase letters, digits or "-"; it is also the cluster’s id'}
            styles={MONO}
            data-autofocus={!editing || undefined}
          />
          <TextInput
            label="API server endpoint"
            placeholder="https://203.0.113.10:6443"
            withAsterisk
            value={form.endpoint}
            onChange={(e) => set('endpoint', e.currentTarget.value)}
            error={errors.endpoint}
            description="The server of your kubeconfig: https://, or http:// for a local cluster"
            styles={MONO}
            autoComplete="off"
          />
          <PasswordInput
            label="API token"
            withAsterisk={!editing}
            value={form.apiToken}
            onChange={(e) => set('apiToken', e.currentTarget.value)}
            error={errors.apiToken}
            placeholder={editing ? SENSITIVE_PLACEHOLDER : 'A service account bearer token'}
            description={
              editing
                ? 'Stored encrypted and never shown again; leave it as is to keep it, or type a new one'
                : 'A bearer token allowed to read the cluster and deploy services'
            }
            autoComplete="new-password"
          />
          <Textarea
            label="CA certificate"
            placeholder={'-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----'}
            value={form.caCertificate}
            onChange={(e) => set('caCertificate', e.currentTarget.value)}
            error={errors.caCertificate}
            description="Optional: the PEM of the cluster’s certificate authority, when its API server uses a private CA"
            autosize
            minRows={3}
            maxRows={8}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
          />
          <Switch
            label="Associate a namespace"
            description="Services of this project deploy into one namespace of the cluster"
            checked={form.associate}
            onChange={(e) => set('associate', e.currentTarget.checked, 'namespace')}
          />
          <Collapse in={form.associate}>
            <TextInput
              label="Namespace"
              placeholder="team-a"
              withAsterisk
              value={form.namespace}
              onChange={(e) => set('namespace', e.currentTarget.value)}
              error={errors.namespace}
              description="5 to 63 lowercase letters, digits or “-”, starting and ending with a letter or digit"
              styles={MONO}
              autoComplete="off"
            />
          </Collapse>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              {editing ? 'Update Cluster' : 'Connect Cluster'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
