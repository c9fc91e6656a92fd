import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconBox, IconWorld } from '@tabler/icons-react';
import { PUBLIC_DOCKER_IMAGE } from '@gantry/contracts';

/** Where a service's image comes from: a registry of the project and its repository, or a public image. */
export function ServiceImage({ registry, imageRepository }: { registry: string | null; imageRepository: string }) {
  return (
    <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
      <ThemeIcon size={20} radius="sm" variant="light" color={registry ? 'indigo' : 'gray'}>
        {registry ? <IconBox size={13} /> : <IconWorld size={13} />}
      </ThemeIcon>
      <Text size="sm" c="dimmed" truncate="end" title={registry ?? PUBLIC_DOCKER_IMAGE}>
        {registry ?? PUBLIC_DOCKER_IMAGE}
      </Text>
      <Text size="sm" ff="monospace" truncate="end" title={imageRepository}>
        {imageRepository}
      </Text>
    </Group>
  );
}
