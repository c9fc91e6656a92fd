import { Avatar, Button, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { IconGitCommit, IconTag } from '@tabler/icons-react';
import type { ImageTag } from '@gantry/contracts';
import { errorMessage } from '../../../api/errors';
import { DataTable, type Column } from '../../../ui/DataTable';
import { RelativeTime } from '../../../ui/RelativeTime';
import { useErrorToast } from '../../../ui/use-error-toast';
import { useRepositoryVersions } from '../api/list-repository-versions';
import { shortDigest } from '../lib/versions';

const columns: Column<ImageTag>[] = [
  {
    key: 'tag',
    header: 'Version',
    render: (t) => (
      <Group gap={6} wrap="nowrap">
        <IconTag size={14} color="var(--mantine-color-dimmed)" />
        <Text ff="monospace" size="sm" fw={600} c={t.name === 'latest' ? 'indigo' : undefined} data-testid="version-tag">
          {t.name}
        </Text>
      </Group>
    ),
  },
  {
    key: 'date',
    header: 'Pushed',
    width: 150,
    render: (t) =>
      t.date ? (
        <RelativeTime date={t.date} size="sm" style={{ whiteSpace: 'nowrap' }} />
      ) : (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ),
  },
  {
    key: 'commit',
    header: 'Commit / digest',
    render: (t) => {
      const hash = shortDigest(t);
      return (
        <Group gap="sm" wrap="nowrap" maw={380}>
          {t.commit?.user.name && (
            <Tooltip label={t.commit.user.name} withArrow>
              <Avatar src={t.commit.user.avatar || undefined} size={24} radius="xl" color="indigo">
                {t.commit.user.name.slice(0, 1).toUpperCase()}
              </Avatar>
            </Tooltip>
          )}
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Group gap={4} wrap="nowrap">
              <IconGitCommit size={14} color="var(--mantine-color-dimmed)" />
              <Text
                ff="monospace"
                size="sm"
                c={hash ? undefined : 'dimmed'}
                data-testid="version-hash"
                title={t.commit ? t.commit.sha : (t.digest ?? undefined)}
              >
                {hash || '—'}
              </Text>
            </Group>
            {t.commit?.message && (
              <Text size="xs" c="dimmed" truncate="end" title={t.commit.message}>
                {t.commit.message.split('\n')[0]}
                {t.commit.user.name ? ` · ${t.commit.user.name}` : ''}
              </Text>
            )}
          </Stack>
        </Group>
      );
    },
  },
];

/** The versions of one repository, 10 at a time with Load more while the server has more (spec §4); 503 retried. */
export function RepositoryVersions({ projectId, registryName, repository }: { projectId: string; registryName: string; repository: string }) {
  const versions = useRepositoryVersions(projectId, registryName, repository);
  useErrorToast(versions.error);
  const retrying = versions.isFetching && versions.failureCount > 0;

  return (
    <Stack gap="sm">
      {versions.isError && versions.tags.length === 0 ? (
        <Text c="red" size="sm" py="md" ta="center">
          {errorMessage(versions.error)}
        </Text>
      ) : (
        <DataTable
          columns={columns}
          rows={versions.tags}
          rowKey={(t) => t.name}
          loading={versions.isPending}
          emptyText="No versions pushed yet"
          data-testid="versions-table"
        />
      )}
      {retrying && (
        <Group gap={6} justify="center">
          <Loader size="xs" />
          <Text size="xs" c="dimmed">
            The registry is busy, retrying…
          </Text>
        </Group>
      )}
      {versions.hasNextPage && (
        <Group justify="center">
          <Button variant="default" size="xs" onClick={() => void versions.fetchNextPage()} loading={versions.isFetchingNextPage}>
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
