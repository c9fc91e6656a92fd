import { ActionIcon, Badge, Button, Group, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconBox, IconBrandDocker, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { matchesSearch, REGISTRY_PROVIDER_NAMES, type DockerRegistry } from '@gantry/contracts';
import { errorMessage } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { useCurrentProject } from '../../../api/session';
import { DataTable, type Column } from '../../../ui/DataTable';
import { PageHeader } from '../../../ui/PageHeader';
import { RelativeTime } from '../../../ui/RelativeTime';
import { SearchableTableCard } from '../../../ui/SearchableTableCard';
import { PlanGate } from '../../../ui/UpgradePrompt';
import { useErrorToast } from '../../../ui/use-error-toast';
import { useDockerRegistries } from '../api/list-registries';
import { DeleteRegistryModal } from '../components/DeleteRegistryModal';
import { PROVIDER_LOOK, registryHost } from '../components/providers';
import { RepositoriesDrawer } from '../components/RepositoriesDrawer';

export const ADD_PATH = '/kubernetes/docker-registries/add';
export const editPath = (name: string) => `/kubernetes/docker-registries/${encodeURIComponent(name)}/edit`;

/**
 * /kubernetes/docker-registries (spec delivery §2): the project's registries, the default one first
 * with DEFAULT; Add, Edit and Delete (with a confirmation) for members who may write — read-only
 * members only look. A row opens its repositories and versions.
 */
export default function RegistriesPage() {
  const project = useCurrentProject();
  const projectId = project?.id ?? '';
  // The server enforces roles (DESIGN §4); the interface only hides what a read-only member cannot do.
  const canWrite = useProjectPermission().can('change');
  const registries = useDockerRegistries(projectId);
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<DockerRegistry | null>(null);
  const [browsing, setBrowsing] = useState<DockerRegistry | null>(null);
  useErrorToast(registries.error);

  const rows = (registries.data ?? []).filter((r) => matchesSearch(search, r.registryName, REGISTRY_PROVIDER_NAMES[r.provider], registryHost(r)));
  const isEmpty = registries.isSuccess && registries.data.length === 0;

  const columns: Column<DockerRegistry>[] = [
    {
      key: 'name',
      header: 'Registry',
      render: (r) => (
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={34} radius="md" variant="light" color={PROVIDER_LOOK[r.provider]?.color ?? 'gray'}>
            {PROVIDER_LOOK[r.provider]?.icon(19) ?? <IconBrandDocker size={19} />}
          </ThemeIcon>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap={8} wrap="nowrap">
              <Text size="sm" fw={600} data-testid="registry-name">
                {r.registryName}
              </Text>
              {r.isDefault && (
                <Badge size="xs" variant="filled" color="indigo" radius="sm" data-testid="registry-default">
                  DEFAULT
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed" ff="monospace" truncate="end" maw={360}>
              {registryHost(r)}
            </Text>
          </Stack>
        </Group>
      ),
    },
    {
      key: 'provider',
      header: 'Provider',
      width: 210,
      render: (r) => (
        <Badge
          variant="light"
          color={PROVIDER_LOOK[r.provider]?.color ?? 'gray'}
          radius="sm"
          styles={{ root: { maxWidth: 'none' }, label: { overflow: 'visible' } }}
        >
          {REGISTRY_PROVIDER_NAMES[r.provider] ?? r.provider}
        </Badge>
      ),
    },
    {
      key: 'added',
      header: 'Added',
      width: 150,
      render: (r) => <RelativeTime date={r.createdAt} size="sm" />,
    },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      width: canWrite ? 220 : 140,
      render: (r) => (
        // The row opens the repositories; the buttons must not.
        <Group gap={4} justify="flex-end" wrap="nowrap" onClick={(e) => e.stopPropagation()}>
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconBox size={15} />}
            onClick={() => setBrowsing(r)}
            aria-label={`Repositories of ${r.registryName}`}
          >
            Repositories
          </Button>
          {canWrite && (
            <>
              <Tooltip label="Edit" withArrow>
                <ActionIcon component={Link} to={editPath(r.registryName)} variant="subtle" color="gray" aria-label={`Edit registry ${r.registryName}`}>
                  <IconPencil size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Delete" withArrow>
                <ActionIcon variant="subtle" color="red" aria-label={`Delete registry ${r.registryName}`} onClick={() => setDeleting(r)}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </>
          )}
        </Group>
      ),
    },
  ];

  const addButton = canWrite && (
    <Button component={Link} to={ADD_PATH} leftSection={<IconPlus size={16} />}>
      Add Docker Registry
    </Button>
  );

  return (
    <Stack gap="lg">
      <PageHeader
        title="Docker Registries"
        description="The container registries your pipelines push to and your Kubernetes services pull from"
        actions={!isEmpty && addButton}
      />
      <PlanGate errors={[registries.error]}>
        <SearchableTableCard
          empty={
            isEmpty && {
              title: 'No Docker registries yet',
              icon: <IconBrandDocker size={28} stroke={1.5} />,
              color: 'indigo',
              description:
                'Connect Docker Hub, Amazon ECR, a GitLab Container Registry or any Docker Registry v2 so pipelines can push images and services can pull them.',
              action: addButton || undefined,
            }
          }
          noun={['registry', 'registries']}
          search={{ value: search, onChange: setSearch }}
          total={registries.data?.length}
          error={registries.isError && !registries.data ? { message: errorMessage(registries.error) } : null}
        >
          <DataTable
            columns={columns}
            rows={rows}
            rowKey={(r) => r.registryName}
            loading={registries.isPending && Boolean(projectId)}
            onRowClick={(r) => setBrowsing(r)}
            data-testid="registries-table"
          />
        </SearchableTableCard>
      </PlanGate>
      <DeleteRegistryModal projectId={projectId} registry={deleting} onClose={() => setDeleting(null)} />
      <RepositoriesDrawer projectId={projectId} registry={browsing} onClose={() => setBrowsing(null)} />
    </Stack>
  );
}
