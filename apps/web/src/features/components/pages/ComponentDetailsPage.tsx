import { Alert, Anchor, Badge, Button, Card, Group, Loader, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconBrandGit,
  IconGitBranch,
  IconInfoCircle,
  IconPencil,
  IconPlus,
  IconRocket,
  IconShare,
  IconStack2,
  IconTrash,
} from '@tabler/icons-react';
import { useDocumentTitle } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { errorMessage } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { useCurrentProject } from '../../../api/session';
import { CardGrid } from '../../../ui/CardGrid';
import { Permitted } from '../../../ui/Permitted';
import { useComponent } from '../api/get-component';
import { useComponentBuilding } from '../api/get-component-building';
import { useComponentBuildUpdates } from '../hooks/use-component-build-updates';
import { componentKeys } from '../api/keys';
import { useComponentVersions } from '../api/list-component-versions';
import { AddToEnvironmentModal } from '../components/AddToEnvironmentModal';
import { ComponentBadges } from '../components/ComponentBadges';
import { DeleteComponentModal } from '../components/DeleteComponentModal';
import { InputsTable, OutputsTable } from '../components/ParameterTables';
import { Readme } from '../../../ui/Readme';
import { ShareComponentModal } from '../components/ShareComponentModal';
import { VersionPicker } from '../components/VersionPicker';
import { useErrorToast } from '../../../ui/use-error-toast';
import { repositoryName, repositoryWebUrl } from '../lib/labels';
import { toastClearance } from '../../../ui/toast-clearance';

export const NO_BUILD_TEXT = 'README and Schema are not available because this component does not have a successful build yet.';

function Fact({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Group gap={6} wrap="nowrap">
        {icon}
        <Text size="xs" fw={600} tt="uppercase" c="dimmed">
          {label}
        </Text>
      </Group>
      <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</div>
    </Stack>
  );
}

function Panel({ title, children, padding = 'lg' }: { title: ReactNode; children: ReactNode; padding?: 'lg' | 0 }) {
  return (
    <Card withBorder radius="md" padding={padding}>
      <Title order={4} fz="md" fw={650} p={padding === 0 ? 'md' : undefined} pb={padding === 0 ? 0 : undefined} mb={padding === 0 ? 0 : 'md'}>
        {title}
      </Title>
      {children}
    </Card>
  );
}

const dash = (
  <Text size="sm" c="dimmed">
    —
  </Text>
);

/** /components/:componentId (?buildId=) — spec §2 Component details. */
export default function ComponentDetailsPage() {
  const { componentId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const buildId = params.get('buildId');
  const projectId = useCurrentProject()?.id ?? '';
  const { can } = useProjectPermission();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const component = useComponent(projectId, componentId, buildId);
  const versions = useComponentVersions(projectId, componentId);
  const c = component.data;
  const building = useComponentBuilding(projectId, componentId, Boolean(c?.pipelineId));
  useComponentBuildUpdates(projectId || undefined);
  const [removing, setRemoving] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [adding, setAdding] = useState(false);
  useErrorToast(component.error);
  useDocumentTitle(`${c?.name ?? 'Component'} · Gantry`);

  // A build that ends may bring a new version: refresh the details and the versions.
  const runningBuild = building.data?.build ?? null;
  const lastRunning = useRef<string | null>(null);
  useEffect(() => {
    const id = runningBuild?.id ?? null;
    if (lastRunning.current && lastRunning.current !== id) {
      void qc.invalidateQueries({ queryKey: componentKeys.detailsOf(projectId, componentId) });
      void qc.invalidateQueries({ queryKey: componentKeys.versions(projectId, componentId) });
    }
    lastRunning.current = id;
  }, [runningBuild?.id, qc, projectId, componentId]);

  if (component.isError && !c) {
    return (
      <Stack gap="lg">
        <Anchor component={Link} to="/components" size="sm" c="dimmed">
          <Group gap={4}>
            <IconArrowLeft size={14} />
            Components
          </Group>
        </Anchor>
        <Alert color="red" variant="light" radius="md" icon={<IconAlertTriangle size={18} />}>
          {errorMessage(component.error)}
        </Alert>
      </Stack>
    );
  }

  const owning = Boolean(c && !c.isPublic && c.projectId === projectId);
  const canEdit = Boolean(c && c.editable && owning && can('change'));
  const canShare = owning && can('manageUsers');
  const versionList = versions.data ?? [];
  const hasBuild = Boolean(c?.buildId) || versionList.length > 0;
  const noBuild = Boolean(c) && !c?.buildId && versions.isSuccess && versionList.length === 0;
  const selectedVersion = buildId ?? c?.buildId ?? versionList.find((v) => v.isLatestVersion)?.id ?? null;
  const repoUrl = repositoryWebUrl(c?.repositoryUrl);
  const schemaLoading = component.isFetching && component.isPlaceholderData;

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/components" size="sm" c="dimmed">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          Components
        </Group>
      </Anchor>

      <Card withBorder radius="md" padding="lg">
        <Group ref={toastClearance} justify="space-between" align="flex-start" wrap="wrap" gap="md">
          <Stack gap={8} style={{ flex: '1 1 320px', minWidth: 'min(100%, 320px)' }}>
            {c ? (
              <Group gap="sm">
                <Title order={2} fz={24} fw={650} data-testid="component-title">
                  {c.name}
                </Title>
                {c.isPublic && (
                  <Badge color="teal" variant="light">
                    Public
                  </Badge>
                )}
              </Group>
            ) : (
              <Skeleton height={28} width={220} radius="sm" />
            )}
            {c ? <ComponentBadges component={c} /> : <Skeleton height={18} width={260} radius="sm" />}
            {c && (
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
                {c.description}
              </Text>
            )}
            {c?.providedBy && (
              <Text size="xs" c="dimmed">
                {c.providedBy}
              </Text>
            )}
          </Stack>
          {c && (
            <Group gap="sm">
              {versionList.length > 0 && (
                <VersionPicker versions={versionList} value={selectedVersion} onChange={(id) => setParams({ buildId: id }, { replace: true })} />
              )}
              {canEdit && (
                <Button variant="default" component={Link} to={`/components/${c.id}/edit`} leftSection={<IconPencil size={16} />}>
                  Edit
                </Button>
              )}
              {canShare && (
                <Button variant="default" leftSection={<IconShare size={16} />} onClick={() => setSharing(true)}>
                  Share
                </Button>
              )}
              <Permitted action="change">
                {(disabled) => (
                  <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)} disabled={disabled}>
                    Add to Environment
                  </Button>
                )}
              </Permitted>
              {canEdit && (
                <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => setRemoving(true)}>
                  Remove
                </Button>
              )}
            </Group>
          )}
        </Group>
      </Card>

      {runningBuild && (
        <Alert color="blue" variant="light" radius="md" icon={<Loader size={16} />} data-testid="component-building">
          <Group gap="xs">
            <Text size="sm">Component is being built...</Text>
            <Anchor component={Link} to={`/pipelines/${runningBuild.pipelineId}/builds/${runningBuild.id}`} size="sm">
              View build #{runningBuild.number}
            </Anchor>
          </Group>
        </Alert>
      )}

      <Card withBorder radius="md" padding="lg" data-testid="component-facts">
        {c ? (
          // A fact needs 180 px: its icon and label ('Artifacts step'), a repository's owner/name.
          <CardGrid minWidth={180} max={4}>
            <Fact icon={<IconRocket size={14} color="var(--mantine-color-dimmed)" />} label="Pipeline">
              {c.pipelineId ? (
                <Anchor component={Link} to={`/pipelines/${c.pipelineId}/details`} size="sm" data-testid="component-pipeline">
                  {c.pipelineName ?? c.pipelineId}
                </Anchor>
              ) : (
                dash
              )}
            </Fact>
            <Fact icon={<IconStack2 size={14} color="var(--mantine-color-dimmed)" />} label="Artifacts step">
              {c.artifactStep ? (
                <Text size="sm" ff="monospace" data-testid="component-artifact-step">
                  {c.artifactStep}
                </Text>
              ) : (
                dash
              )}
            </Fact>
            <Fact icon={<IconBrandGit size={14} color="var(--mantine-color-dimmed)" />} label="Repository">
              {repoUrl ? (
                <Anchor href={repoUrl} target="_blank" rel="noreferrer" size="sm" data-testid="component-repository">
                  {repositoryName(c.repositoryUrl)}
                </Anchor>
              ) : c.repositoryUrl ? (
                <Text size="sm" data-testid="component-repository">
                  {c.repositoryUrl}
                </Text>
              ) : (
                dash
              )}
            </Fact>
            <Fact icon={<IconGitBranch size={14} color="var(--mantine-color-dimmed)" />} label="Branch filter">
              {c.branchFilter ? (
                <Text size="sm" ff="monospace" data-testid="component-branch">
                  {c.branchFilter}
                </Text>
              ) : (
                dash
              )}
            </Fact>
          </CardGrid>
        ) : (
          <Skeleton height={40} radius="sm" />
        )}
      </Card>

      {noBuild ? (
        <Alert color="gray" variant="light" radius="md" icon={<IconInfoCircle size={18} />} data-testid="component-no-build">
          {NO_BUILD_TEXT}
        </Alert>
      ) : (
        <>
          <Panel title="README">
            {!c || (hasBuild && schemaLoading) ? (
              <Stack gap="xs">
                <Skeleton height={12} radius="sm" />
                <Skeleton height={12} width="80%" radius="sm" />
                <Skeleton height={12} width="60%" radius="sm" />
              </Stack>
            ) : c.readme ? (
              <Readme text={c.readme} />
            ) : (
              <Text size="sm" c="dimmed">
                This version has no README.
              </Text>
            )}
          </Panel>
          <Panel title="Input parameters" padding={0}>
            <InputsTable inputs={c?.schema?.inputs ?? []} loading={!c || schemaLoading} />
          </Panel>
          <Panel title="Output parameters" padding={0}>
            <OutputsTable outputs={c?.schema?.outputs ?? []} loading={!c || schemaLoading} />
          </Panel>
        </>
      )}

      {c && (
        <>
          <DeleteComponentModal
            projectId={projectId}
            component={removing ? c : null}
            onClose={() => setRemoving(false)}
            onDeleted={() => navigate('/components')}
          />
          {owning && <ShareComponentModal opened={sharing} onClose={() => setSharing(false)} projectId={projectId} component={c} />}
          <AddToEnvironmentModal opened={adding} onClose={() => setAdding(false)} projectId={projectId} component={c} />
        </>
      )}
    </Stack>
  );
}
