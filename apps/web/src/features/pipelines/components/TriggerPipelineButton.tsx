import { Button, Group, Popover, Select, Stack, Text } from '@mantine/core';
import { IconGitBranch, IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { branchMatches, type Pipeline } from '@gantry/contracts';
import { errorMessage } from '../../../api/errors';
import { toast } from '../../../api/toast';
import { useGitBranches } from '../../git-accounts';
import { useTriggerPipeline } from '../api/trigger-pipeline';

/** Trigger pipeline with a branch picker (spec §2): the repository's branches; sends ref refs/heads/{branch}, then opens the build. */
export function TriggerPipelineButton({ projectId, pipeline }: { projectId: string; pipeline: Pipeline }) {
  const [opened, setOpened] = useState(false);
  const [branch, setBranch] = useState<string | null>(null);
  const branches = useGitBranches(projectId, pipeline.gitAccountId, pipeline.repositoryUrl, opened);
  const trigger = useTriggerPipeline(projectId, pipeline.id);
  const navigate = useNavigate();

  // Preselect: the branch filter itself, else the first branch it matches, else the first branch.
  useEffect(() => {
    const list = branches.data;
    if (!list?.length || (branch && list.includes(branch))) return;
    setBranch(list.find((b) => b === pipeline.branchFilter) ?? list.find((b) => branchMatches(pipeline.branchFilter, b)) ?? list[0] ?? null);
  }, [branches.data, branch, pipeline.branchFilter]);

  const run = () => {
    if (!branch) return;
    trigger.mutate(branch, {
      onSuccess: ({ buildId }) => {
        setOpened(false);
        navigate(`/pipelines/${pipeline.id}/builds/${buildId}`);
      },
      onError: (e) => toast.apiError(e),
    });
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" width={320} withArrow trapFocus>
      <Popover.Target>
        <Button leftSection={<IconPlayerPlay size={16} />} onClick={() => setOpened((o) => !o)}>
          Trigger pipeline
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm">
          <Text size="sm" fw={600}>
            Run {pipeline.name}
          </Text>
          <Select
            label="Branch"
            placeholder={branches.isPending ? 'Loading branches…' : 'Select a branch'}
            data={branches.data ?? []}
            value={branch}
            onChange={setBranch}
            searchable
            leftSection={<IconGitBranch size={14} />}
            nothingFoundMessage={branches.isPending ? 'Loading…' : 'No branches found'}
            error={branches.isError ? errorMessage(branches.error) : undefined}
            comboboxProps={{ withinPortal: false }}
            allowDeselect={false}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" size="xs" onClick={() => setOpened(false)}>
              Cancel
            </Button>
            <Button size="xs" data-autofocus onClick={run} disabled={!branch} loading={trigger.isPending} leftSection={<IconPlayerPlay size={14} />}>
              Run
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
