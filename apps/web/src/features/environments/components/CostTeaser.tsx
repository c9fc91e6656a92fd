import { Anchor, Group, Paper, Text, ThemeIcon } from '@mantine/core';
import { IconLeaf } from '@tabler/icons-react';
import { Link } from 'react-router';
import { UPGRADE_PATH } from '../../../api/toast';

/** The "Cloud Waste Manager" teaser shown in place of the advisor when the plan has no cost tools (spec §2). */
export function CostTeaser({ compact }: { compact?: boolean }) {
  return (
    <Paper withBorder radius="md" p={compact ? 'xs' : 'md'} bg="var(--mantine-color-grape-0)" data-testid="cost-teaser">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" color="grape" radius="md" size={compact ? 26 : 34}>
          <IconLeaf size={compact ? 15 : 19} />
        </ThemeIcon>
        <div>
          <Text size="sm" fw={600}>
            Cloud Waste Manager
          </Text>
          <Text size="xs" c="dimmed">
            Find idle EC2, load balancers and databases and put environments to sleep on a schedule.{' '}
            <Anchor component={Link} to={UPGRADE_PATH} size="xs" onClick={(e) => e.stopPropagation()}>
              Upgrade Plan
            </Anchor>
          </Text>
        </div>
      </Group>
    </Paper>
  );
}
