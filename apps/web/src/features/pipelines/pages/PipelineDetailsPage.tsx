import { Anchor, Button, Card, Group, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconBrandGit, IconCode, IconGitBranch, IconHistory, IconPencil, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useDocumentTitle } from '@mantine/hooks';
import { useProjectPermission } from '../../../api/permissions';
import { useCurrentProject } from '../../../api/session';
import { Permitted } from '../../../ui/Permitted';
import { toast } from '../../../api/toast';
import { usePipeline } from '../api/get-pipeline';
import { useGitAccounts } from '../../git-accounts';
import { BuildStatusBadge } from '../components/BuildStatusBadge';
import { BuildsTab } from '../components/BuildsTab';
import { DeletePipelineModal } from '../components/DeletePipelineModal';
import { SpecTab } from '../components/SpecTab';
import { TriggerPipelineButton } from '../components/TriggerPipelineButton';
import { useBuildUpdates } from '../hooks/use-build-updates';
import { repositoryName, repositoryWebUrl } from '../lib/commit';
import { PipelineLoadError } from '../components/PipelineLoadError';
import { toastClearance } from '../../../ui/toast-clearance';

export type DetailsTab = 'spec' | 'builds';
export const detailsTab = (v: string | null): DetailsTab => (v === 'builds' ? 'builds' : 'spec');

/** /pipelines/:pipelineId/details?tab=spec|builds (spec §2). Default tab: spec. */
export default function PipelineDetailsPage() {
  const { pipelineId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const projectId = useCurrentProject()?.id ?? '';
  const pipeline = usePipeline(projectId, pipelineId);
  const accounts = useGitAccounts(projectId);
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const mayChange = useProjectPermission().can('change');
  const tab = detailsTab(params.get('tab'));
  useBuildUpdates(projectId || undefined);
  useDocumentTitle(`${pipeline.data?.name ?? 'Pipeline'} · Gantry`);

  useEffect(() => {
    if (pipeline.error) toast.apiError(pipeline.error);
  }, [pipeline.error]);

  if (pipeline.isError) {
    return (
      <Stack>
        <PipelineLoadError error={pipeline.error} />
      </Stack>
    );
  }

  const p = pipeline.data;
  const account = accounts.data?.find((a) => a.gitAccountId === p?.gitAccountId);
  const repoUrl = repositoryWebUrl(p?.repositoryUrl);

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/pipelines" size="sm" c="dimmed">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          Pipelines
        </Group>
      </Anchor>
      <Card withBorder radius="md" padding="lg">
        <Group ref={toastClearance} justify="space-between" align="flex-start" wrap="wrap" gap="md">
          <Stack gap={6} style={{ minWidth: 0 }}>
            {p ? (
              <Group gap="sm">
                <Title order={2} fz={24} fw={650}>
                  {p.name}
                </Title>
                <BuildStatusBadge status={p.latestBuild?.status} to={p.latestBuild ? `/pipelines/${p.id}/builds/${p.latestBuild.id}` : undefined} />
              </Group>
            ) : (
              <Skeleton height={28} width={220} radius="sm" />
            )}
            {p ? (
              <Group gap="lg" wrap="wrap">
                <Group gap={6} wrap="nowrap">
                  <IconBrandGit size={15} color="var(--mantine-color-dimmed)" />
                  {repoUrl ? (
                    <Anchor href={repoUrl} target="_blank" rel="noreferrer" size="sm" data-testid="pipeline-repository">
                      {repositoryName(p.repositoryUrl)}
                    </Anchor>
                  ) : (
                    <Text size="sm" data-testid="pipeline-repository">
                      {p.repositoryUrl}
                    </Text>
                  )}
                  {account && (
                    <Text size="xs" c="dimmed">
                      via {account.accountName}
                    </Text>
                  )}
                </Group>
                <Group gap={6} wrap="nowrap">
                  <IconGitBranch size={15} color="var(--mantine-color-dimmed)" />
                  <Text size="sm" ff="monospace">
                    {p.branchFilter}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {p.automatedTrigger ? 'automated trigger on' : 'manual only'}
                  </Text>
                </Group>
              </Group>
            ) : (
              <Skeleton height={14} width={320} radius="sm" />
            )}
          </Stack>
          {p && (
            <Group gap="sm">
              <Permitted action="change">
                {(disabled) =>
                  disabled ? (
                    <Button disabled leftSection={<IconPlayerPlay size={16} />}>
                      Trigger pipeline
                    </Button>
                  ) : (
                    <TriggerPipelineButton projectId={projectId} pipeline={p} />
                  )
                }
              </Permitted>
              {mayChange && (
                <>
                  <Button variant="default" component={Link} to={`/pipelines/${p.id}/edit`} leftSection={<IconPencil size={16} />}>
                    Edit
                  </Button>
                  <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => setDeleting(true)}>
                    Delete
                  </Button>
                </>
              )}
            </Group>
          )}
        </Group>
      </Card>

      <Tabs value={tab} onChange={(v) => setParams({ tab: detailsTab(v) })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="spec" leftSection={<IconCode size={16} />}>
            Spec
          </Tabs.Tab>
          <Tabs.Tab value="builds" leftSection={<IconHistory size={16} />}>
            Builds
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="spec" pt="md">
          {p ? <SpecTab projectId={projectId} pipelineId={pipelineId} workDir={p.workDir} /> : <Skeleton height={480} radius="md" />}
        </Tabs.Panel>
        <Tabs.Panel value="builds" pt="md">
          {p ? <BuildsTab pipelineId={pipelineId} repositoryUrl={p.repositoryUrl} provider={account?.type} /> : <Skeleton height={300} radius="md" />}
        </Tabs.Panel>
      </Tabs>

      <DeletePipelineModal
        projectId={projectId}
        pipeline={deleting && p ? p : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate('/pipelines')}
      />
    </Stack>
  );
}
