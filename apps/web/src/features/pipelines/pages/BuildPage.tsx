import { Alert, Anchor, Button, Card, Divider, Group, Skeleton, Stack, Text, Title, Tooltip, UnstyledButton } from '@mantine/core';
import { useClipboard, useDocumentTitle } from '@mantine/hooks';
import { IconAlertCircle, IconArrowLeft, IconCalendarEvent, IconCopy, IconGitBranch, IconHash, IconHourglass, IconPlayerStop } from '@tabler/icons-react';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { isBuildActive } from '@gantry/contracts';
import { Permitted } from '../../../ui/Permitted';
import { errorMessage } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { RelativeTime } from '../../../ui/RelativeTime';
import { usePipeline } from '../api/get-pipeline';
import { usePipelineBuild } from '../api/get-pipeline-build';
import { useGitAccounts } from '../../git-accounts';
import { useStopPipelineBuild } from '../api/stop-pipeline-build';
import { BuildStatusBadge } from '../components/BuildStatusBadge';
import { BuildTriggerIcon } from '../components/BuildTriggerIcon';
import { CommitCell } from '../components/CommitCell';
import { StageBoard } from '../components/StageBoard';
import { StepPanel } from '../components/StepPanel';
import { useBuildUpdates } from '../hooks/use-build-updates';
import { useNow } from '../hooks/use-now';
import { buildNumberText, elapsedMs, formatMinSec } from '../lib/format';
import { toastClearance } from '../../../ui/toast-clearance';

export const STOPPED_TEXT = 'Successfully stopped pipeline execution';

function Fact({ label, icon, children }: { label: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" style={{ letterSpacing: 0.4 }}>
        {label}
      </Text>
      <Group gap={6} wrap="nowrap">
        {icon}
        {children}
      </Group>
    </Stack>
  );
}

/** /pipelines/:pipelineId/builds/:buildId — the build execution page (spec §2, §4). */
export default function BuildPage() {
  const { pipelineId = '', buildId = '' } = useParams();
  const projectId = useCurrentProject()?.id ?? '';
  const build = usePipelineBuild(projectId, pipelineId, buildId);
  const pipeline = usePipeline(projectId, pipelineId);
  const accounts = useGitAccounts(projectId);
  const stop = useStopPipelineBuild(projectId, pipelineId);
  const [stopped, setStopped] = useState(false);
  const [params, setParams] = useSearchParams();
  const clipboard = useClipboard();
  const b = build.data;
  const now = useNow(isBuildActive(b?.status));
  useBuildUpdates(projectId || undefined);
  useDocumentTitle(`${b ? `Build ${buildNumberText(b.id)}` : 'Build'} · Gantry`);

  // The open step lives in the URL (?step=), so a link can open it.
  const openStep = params.get('step');
  const setOpenStep = useCallback(
    (name: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (name) next.set('step', name);
          else next.delete('step');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const closePanel = useCallback(() => setOpenStep(null), [setOpenStep]);

  useEffect(() => {
    if (build.error) toast.apiError(build.error);
  }, [build.error]);

  // A new build (another id in the URL) can be stopped again.
  useEffect(() => setStopped(false), [buildId]);

  const onStop = () => {
    if (!b) return;
    stop.mutate(b.id, {
      onSuccess: () => {
        setStopped(true);
        toast.success(STOPPED_TEXT);
      },
      onError: (e) => toast.apiError(e),
    });
  };

  const step = b?.steps.find((s) => s.name === openStep) ?? null;
  // One Stop Execution: in the build's header, or in the step panel's while one is open (it lies over the header's right end)
  const stopButton = (size: 'sm' | 'xs') =>
    b?.status === 'RUNNING' && (
      <Permitted action="change">
        {(refused) => (
          <Button
            color="red"
            variant="light"
            size={size}
            leftSection={<IconPlayerStop size={size === 'sm' ? 16 : 14} />}
            onClick={onStop}
            loading={stop.isPending}
            disabled={stopped || refused}
          >
            Stop Execution
          </Button>
        )}
      </Permitted>
    );
  const provider = accounts.data?.find((a) => a.gitAccountId === pipeline.data?.gitAccountId)?.type;
  const backTo = `/pipelines/${pipelineId}/details?tab=builds`;

  if (build.isError) {
    return (
      <Stack>
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load the build">
          {errorMessage(build.error)}
          <Anchor component={Link} to={backTo} display="block" mt="xs">
            Back to the builds
          </Anchor>
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack gap="lg" style={{ paddingRight: step ? 0 : undefined }}>
      <Anchor component={Link} to={backTo} size="sm" c="dimmed">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {pipeline.data?.name ?? 'Pipeline'} builds
        </Group>
      </Anchor>

      <Card withBorder radius="md" padding="lg">
        <Group ref={toastClearance} justify="space-between" align="flex-start" wrap="wrap" gap="md">
          <Stack gap={4}>
            <Group gap="sm">
              <Title order={2} fz={24} fw={650}>
                {pipeline.data?.name ?? <Skeleton component="span" height={24} width={160} display="inline-block" />}
              </Title>
              {b ? <BuildStatusBadge status={b.status} size="md" /> : <Skeleton height={22} width={90} radius="sm" />}
            </Group>
            {b?.metadata.commit && pipeline.data && <CommitCell commit={b.metadata.commit} repositoryUrl={pipeline.data.repositoryUrl} provider={provider} />}
          </Stack>
          {!step && stopButton('sm')}
        </Group>
        <Divider my="md" />
        {b ? (
          <Group gap={40} wrap="wrap">
            <Fact label="Branch" icon={<IconGitBranch size={16} color="var(--mantine-color-dimmed)" />}>
              <Text size="sm" ff="monospace" fw={500} data-testid="build-branch">
                {b.branch}
              </Text>
            </Fact>
            <Fact label="Build" icon={<IconHash size={16} color="var(--mantine-color-dimmed)" />}>
              <Tooltip label={clipboard.copied ? 'Copied' : 'Click to copy the build id'} withArrow>
                <UnstyledButton
                  onClick={() => {
                    clipboard.copy(b.id);
                    toast.success('Copied to clipboard!');
                  }}
                  aria-label="Copy build number"
                  data-testid="build-number"
                >
                  <Group gap={4} wrap="nowrap">
                    <Text size="sm" ff="monospace" fw={600} c="indigo">
                      {buildNumberText(b.id)}
                    </Text>
                    <IconCopy size={14} color="var(--mantine-color-indigo-5)" />
                  </Group>
                </UnstyledButton>
              </Tooltip>
            </Fact>
            <Fact label="Started" icon={<IconCalendarEvent size={16} color="var(--mantine-color-dimmed)" />}>
              {b.startDate ? <RelativeTime date={b.startDate} c="dark" /> : <Text size="sm">Not started</Text>}
            </Fact>
            <Fact label="Duration" icon={<IconHourglass size={16} color="var(--mantine-color-dimmed)" />}>
              <Text size="sm" ff="monospace" data-testid="build-duration">
                {formatMinSec(elapsedMs(b.startDate, b.stopDate, now))}
              </Text>
            </Fact>
            <Fact label="Trigger" icon={<BuildTriggerIcon trigger={b.trigger} />}>
              <Text size="sm" tt="capitalize">
                {b.trigger} · #{b.number}
              </Text>
            </Fact>
          </Group>
        ) : (
          <Group gap={40}>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={34} width={110} radius="sm" />
            ))}
          </Group>
        )}
        {b?.errorMessage && (
          <Alert color="red" variant="light" mt="md" icon={<IconAlertCircle size={18} />} data-testid="build-error">
            {b.errorMessage}
          </Alert>
        )}
      </Card>

      <Card withBorder radius="md" padding="md">
        <Group justify="space-between" mb="sm">
          <Text fw={650}>Steps</Text>
          <Text size="xs" c="dimmed">
            Click a step to see its logs and artifacts
          </Text>
        </Group>
        {b ? (
          b.steps.length ? (
            <StageBoard build={b} selected={openStep} now={now} onOpen={(name) => setOpenStep(name)} />
          ) : (
            <Text size="sm" c="dimmed" ta="center" py="lg">
              {isBuildActive(b.status) ? 'Preparing the build…' : 'This build has no steps.'}
            </Text>
          )
        ) : (
          <Group align="flex-start" gap="md">
            {[0, 1, 2].map((i) => (
              <Stack key={i} w={280} gap="xs">
                <Skeleton height={14} width={80} radius="sm" />
                <Skeleton height={64} radius="md" />
                <Skeleton height={64} radius="md" />
              </Stack>
            ))}
          </Group>
        )}
      </Card>

      {b && step && (
        <StepPanel
          key={`${b.id}/${step.name}`}
          projectId={projectId}
          pipelineId={pipelineId}
          build={b}
          step={step}
          now={now}
          onClose={closePanel}
          actions={stopButton('xs')}
        />
      )}
    </Stack>
  );
}
