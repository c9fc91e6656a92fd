import { Anchor, Avatar, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconGitCommit } from '@tabler/icons-react';
import type { Commit } from '@gantry/contracts';
import { commitUrl, shortSha } from '../lib/commit';

/** The commit of a build: 7-character hash (a link unless the version has a dash), message and author. */
export function CommitCell({ commit, repositoryUrl, provider }: { commit: Commit | null | undefined; repositoryUrl: string; provider?: string | null }) {
  if (!commit?.name) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
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
