import { Badge, Box, Divider, Drawer, Group, NavLink, ScrollArea, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBox, IconPackage } from '@tabler/icons-react';
import { useState } from 'react';
import { REGISTRY_PROVIDER_NAMES, registryMessages, type DockerRegistry } from '@gantry/contracts';
import { errorMessage } from '../../../api/errors';
import { EmptyState } from '../../../ui/EmptyState';
import { SearchInput } from '../../../ui/SearchInput';
import { useErrorToast } from '../../../ui/use-error-toast';
import { useDockerRepositories } from '../api/list-repositories';
import { PROVIDER_LOOK, registryHost } from './providers';
import { RepositoryVersions } from './RepositoryVersions';

/** A registry's repositories and, for the chosen one, its versions — so users see what their pipelines pushed. */
export function RepositoriesDrawer({ projectId, registry, onClose }: { projectId: string; registry: DockerRegistry | null; onClose: () => void }) {
  return (
    <Drawer
      opened={Boolean(registry)}
      onClose={onClose}
      position="right"
      size={1000}
      padding="lg"
      title={
        registry && (
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon size={36} radius="md" variant="light" color={PROVIDER_LOOK[registry.provider]?.color ?? 'gray'}>
              {PROVIDER_LOOK[registry.provider]?.icon(20)}
            </ThemeIcon>
            <Stack gap={0}>
              <Title order={4} fz="lg" fw={650}>
                {registry.registryName}
              </Title>
              <Text size="xs" c="dimmed">
                {REGISTRY_PROVIDER_NAMES[registry.provider] ?? registry.provider} · {registryHost(registry)}
              </Text>
            </Stack>
          </Group>
        )
      }
    >
      {registry && <RegistryBrowser key={registry.registryName} projectId={projectId} registry={registry} />}
    </Drawer>
  );
}

function RegistryBrowser({ projectId, registry }: { projectId: string; registry: DockerRegistry }) {
  const repositories = useDockerRepositories(projectId, registry.registryName);
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  useErrorToast(repositories.error, registryMessages.repositoriesFailed);

  const list = (repositories.data ?? []).filter((r) => r.name.toLowerCase().includes(search.trim().toLowerCase()));
  const selected = chosen ?? repositories.data?.[0]?.name ?? null;

  if (repositories.isError) {
    return <EmptyState compact title="Repositories unavailable" description={errorMessage(repositories.error, registryMessages.repositoriesFailed)} />;
  }
  if (repositories.isSuccess && repositories.data.length === 0) {
    return (
      <EmptyState
        title="No repositories yet"
        icon={<IconPackage size={28} stroke={1.5} />}
        description="Images pushed to this registry — by a pipeline's docker-push step or by hand — show up here with their versions."
      />
    );
  }

  return (
    <Group align="flex-start" gap="lg" wrap="nowrap" data-testid="registry-browser">
      <Stack gap="xs" w={230} style={{ flexShrink: 0 }}>
        <Group justify="space-between">
          <Text size="xs" fw={600} tt="uppercase" c="dimmed">
            Repositories
          </Text>
          {repositories.data && (
            <Badge size="sm" variant="light" color="gray" radius="sm">
              {repositories.data.length}
            </Badge>
          )}
        </Group>
        <SearchInput value={search} onChange={setSearch} placeholder="Search repositories..." label="Search repositories" w="100%" />
        <ScrollArea.Autosize mah="calc(100vh - 220px)">
          {repositories.isPending
            ? [0, 1, 2].map((i) => <Skeleton key={i} height={32} radius="sm" mb={6} />)
            : list.map((r) => (
                <NavLink
                  key={r.name}
                  label={r.name}
                  active={r.name === selected}
                  onClick={() => setChosen(r.name)}
                  leftSection={<IconBox size={16} stroke={1.6} />}
                  variant="light"
                  styles={{ label: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
                  style={{ borderRadius: 6 }}
                />
              ))}
          {repositories.isSuccess && list.length === 0 && (
            <Text size="sm" c="dimmed" ta="center" py="md">
              No repositories match
            </Text>
          )}
        </ScrollArea.Autosize>
      </Stack>
      <Divider orientation="vertical" />
      <Box style={{ flex: 1, minWidth: 0 }}>
        {selected ? (
          <Stack gap="xs">
            <Group gap={6}>
              <Text size="xs" fw={600} tt="uppercase" c="dimmed">
                Versions of
              </Text>
              <Text size="sm" ff="monospace" fw={600}>
                {selected}
              </Text>
            </Group>
            <RepositoryVersions projectId={projectId} registryName={registry.registryName} repository={selected} />
          </Stack>
        ) : (
          <Stack gap="xs">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={28} radius="sm" />
            ))}
          </Stack>
        )}
      </Box>
    </Group>
  );
}
