import { ActionIcon, Menu } from '@mantine/core';
import { IconCopy, IconDots, IconPencil, IconChartBar, IconTrash, IconCloudOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { environmentActions, type Stage } from '@gantry/contracts';
import { useProjectPermission } from '../../../api/permissions';

/** The environment menu (spec §2): Edit, Replicate, Undeploy, Delete with their enable rules; Deployment Insights on the details page. */
export function EnvironmentMenu({
  stage,
  onUndeploy,
  onDelete,
  withInsights,
}: {
  stage: Stage;
  onUndeploy: () => void;
  onDelete: () => void;
  withInsights?: boolean;
}) {
  const can = environmentActions(stage.status);
  const mayChange = useProjectPermission().can('change');
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon
          variant={withInsights ? 'default' : 'subtle'}
          color="gray"
          size={withInsights ? 'lg' : 'md'}
          aria-label={`Actions of environment ${stage.name}`}
          onClick={(e) => e.stopPropagation()}
        >
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
        {withInsights && (
          <Menu.Item component={Link} to={`/environments/${stage.id}/deployment-insights`} leftSection={<IconChartBar size={15} />}>
            Deployment Insights
          </Menu.Item>
        )}
        <Menu.Item component={Link} to={`/environments/${stage.id}/edit`} disabled={!mayChange} leftSection={<IconPencil size={15} />}>
          Edit
        </Menu.Item>
        <Menu.Item component={Link} to={`/environments/${stage.id}/replicate`} disabled={!mayChange || !can.replicate} leftSection={<IconCopy size={15} />}>
          Replicate
        </Menu.Item>
        <Menu.Item disabled={!mayChange || !can.undeploy} leftSection={<IconCloudOff size={15} />} onClick={onUndeploy}>
          Undeploy
        </Menu.Item>
        <Menu.Item color="red" disabled={!mayChange || !can.delete} leftSection={<IconTrash size={15} />} onClick={onDelete}>
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
