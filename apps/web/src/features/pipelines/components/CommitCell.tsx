import { Anchor, Avatar, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconGitBranch, IconGitCommit } from '@tabler/icons-react';
import { ACTIVE_BUILD_STATUSES, type BuildStatus, type Commit } from '@gantry/contracts';
import { commitUrl, shortSha } from '../lib/commit';

/**
 * The commit of a build: 7-character hash (a link unless the version has a dash), message and author. Before the run
 * has resolved it (a queued build), the build's branch and 'Resolving commit…'; without a build, a dash.
 */
export function CommitCell({
  commit,
  build,
  repositoryUrl,
  provider,
}: {
  commit: Commit | null | undefined;
  /** The build the commit is of: its branch stands in for a commit not known yet. */
  build?: { branch: string; status: BuildStatus } | null;
  repositoryUrl: string;
  provider?: string | null;
}) {
  if (!commit?.name) {
    if (!build) {
      return (
        <Text size="sm" c="dimmed">
          —
        </Text>
      );
    }
    return (
      <Stack gap={0} style={{ minWidth: 0 }} data-testid="commit-unresolved">
        <Group gap={4} wrap="nowrap">
          <IconGitBranch size={14} color="var(--mantine-color-dimmed)" />
          <Text ff="monospace" size="sm" fw={500} truncate="end" title={build.branch}>
            {build.branch}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {ACTIVE_BUILD_STATUSES.includes(build.status) ? 'Resolving commit…' : 'No commit resolved'}
        </Text>
      </Stack>
    );
  }
  const href = commitUrl({ repositoryUrl, sha: commit.name, version: commit.version, provider });
  const sha = (
    <Group gap={4} wrap="nowrap">
      <IconGitCommit size={14} color="var(--mantine-color-dimmed)" />
      <Text ff="monospace" size="sm" fw={500} data-testid="commit-sha">
        {shortSha(commit.name)}
      </Text>
    </Group>
  );
  return (
    <Group gap="sm" wrap="nowrap" maw={360}>
      {commit.user.name && (
        <Tooltip label={commit.user.name} withArrow>
          <Avatar src={commit.user.avatar ?? undefined} size={26} radius="xl" color="indigo">
            {commit.user.name.slice(0, 1).toUpperCase()}
          </Avatar>
        </Tooltip>
      )}
      <Stack gap={0} style={{ minWidth: 0 }}>
        {href ? (
          <Anchor href={href} target="_blank" rel="noreferrer" underline="hover" c="indigo">
            {sha}
          </Anchor>
        ) : (
          sha
        )}
        {commit.message && (
          <Text size="xs" c="dimmed" truncate="end" title={commit.message}>
            {commit.message.split('\n')[0]}
          </Text>
        )}
      </Stack>
    </Group>
  );
}
