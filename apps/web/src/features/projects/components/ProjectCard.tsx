import { Avatar, Badge, Button, Card, Divider, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconComponents, IconPencil, IconStack2, IconTrash } from '@tabler/icons-react';
import type { Project } from '@gantry/contracts';
import classes from './ProjectCard.module.css';

export interface ProjectCardProps {
  project: Project;
  onOpen: () => void;
  onEdit: () => void;
  onRemove: () => void;
}

export const projectInitials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('') || '?';

/** One project: avatar, name, description, the caller's permission; Edit and Remove; stage and component counts. */
export function ProjectCard({ project, onOpen, onEdit, onRemove }: ProjectCardProps) {
  const isOwner = project.permission === 'owner';
  return (
    <Card withBorder radius="md" padding={0} className={classes.card} data-testid="project-card">
      <Stack
        gap="sm"
        p="lg"
        className={classes.body}
        onClick={onOpen}
        role="button"
        tabIndex={0}
        onKeyDown={(e) => e.key === 'Enter' && onOpen()}
        aria-label={`Open project ${project.name}`}
      >
        <Group gap="sm" wrap="nowrap">
          <Avatar color="indigo" radius="md" variant="light">
            {projectInitials(project.name)}
          </Avatar>
          <div style={{ minWidth: 0, flex: 1 }}>
            <Text fw={600} truncate>
              {project.name}
            </Text>
            <Badge size="xs" variant="light" color={isOwner ? 'indigo' : 'gray'} radius="sm">
              {project.permission}
            </Badge>
          </div>
        </Group>
        <Text size="sm" c="dimmed" lineClamp={2} mih={40}>
          {project.description}
        </Text>
        <Group gap="lg">
          <Group gap={6}>
            <IconStack2 size={16} color="var(--mantine-color-dimmed)" />
            <Text size="xs" c="dimmed">
              Environments: <b>{project.stagesCount}</b>
            </Text>
          </Group>
          <Group gap={6}>
            <IconComponents size={16} color="var(--mantine-color-dimmed)" />
            <Text size="xs" c="dimmed">
              Components: <b>{project.componentsCount}</b>
            </Text>
          </Group>
        </Group>
      </Stack>
      <Divider color="gray.2" />
      <Group className={classes.footer} px="md" py={6} gap="xs" justify="flex-end">
        <Tooltip label="Only the project owner can change it" disabled={isOwner} withArrow>
          <span>
            <Button variant="subtle" size="xs" color="gray" leftSection={<IconPencil size={14} />} onClick={onEdit} disabled={!isOwner}>
              Edit
            </Button>
          </span>
        </Tooltip>
        <Tooltip label="Only the project owner can remove it" disabled={isOwner} withArrow>
          <span>
            <Button variant="subtle" size="xs" color="red" leftSection={<IconTrash size={14} />} onClick={onRemove} disabled={!isOwner}>
              Remove
            </Button>
          </span>
        </Tooltip>
      </Group>
    </Card>
  );
}
