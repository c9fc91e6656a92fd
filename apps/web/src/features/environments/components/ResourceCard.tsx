import { ActionIcon, Anchor, Button, Card, Collapse, Group, Menu, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconCloudOff, IconDots, IconGitCommit, IconSettings, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { outputsAvailable, resourceActions, RESOURCE_LATEST, versionLabel, type Resource, type Stage } from '@gantry/contracts';
import { useComponents, useComponentVersions } from '../../components';
import { useHistory } from '../api/deployments';
import { StatusBadge } from '../../../ui/StatusBadge';
import { useOutputs } from '../api/resources';
import { statusLabel, versionText } from '../lib/labels';
import { useProjectPermission } from '../../../api/permissions';

/**
 * A collapsible resource card (spec §2): name, component, status, the deployed commit, Configure and the menu
 * (Configure, Delete, Undeploy with the resource rules of §4); its body the branch, the commit of the configured
 * version and that version (LATEST, or its commit's 7 characters as the modal offers it); outputs load when it opens.
 */
export function ResourceCard({
  projectId,
  stage,
  resource,
  onConfigure,
  onDelete,
  onUndeploy,
}: {
  projectId: string;
  stage: Stage;
  resource: Resource;
  onConfigure: () => void;
  onDelete: () => void;
  onUndeploy: () => void;
}) {
  const [open, setOpen] = useState(false);
  const can = resourceActions(resource.status, stage.infrastructureAsCodeTool);
  const mayChange = useProjectPermission().can('change');
  const available = outputsAvailable(stage);
  const outputs = useOutputs(projectId, stage.id, resource.name, open && available && resource.isDeployed);
  const kubernetes = resource.component.type.toLowerCase() === 'kubernetes';
  const versions = useComponentVersions(projectId, resource.component.id);
  const branch = useComponents(projectId).data?.find((c) => c.id === resource.component.id)?.branchFilter;
  const configured =
    resource.componentVersion === RESOURCE_LATEST
      ? (versions.data?.find((v) => v.isLatestVersion) ?? versions.data?.[0])
      : versions.data?.find((v) => v.id === resource.componentVersion);
  const commit = configured?.metadata.commit ?? null;
  // the version the environment's current deployment applied (LATEST resolved then); none once undeployed
  const current = useHistory(projectId, stage.id).data?.deployments.find((d) => d.id === stage.currentDeploymentId);
  const deployed = resource.isDeployed ? current?.resources.find((r) => r.name === resource.name)?.version : null;
  return (
    <Card withBorder radius="md" padding="md" data-testid="resource-card">
      {/* a narrow card (a phone's width) puts the commit, status and actions under the name, not over the card's edge */}
      <Group justify="space-between" wrap="wrap" gap="xs">
        <UnstyledButton
          onClick={() => setOpen((o) => !o)}
          style={{ flex: '1 1 120px', minWidth: 0 }}
          aria-expanded={open}
          aria-label={`Resource ${resource.name}`}
        >
          <Group gap="sm" wrap="nowrap">
            {open ? <IconChevronDown size={18} /> : <IconChevronRight size={18} />}
            <div style={{ minWidth: 0 }}>
              <Text fw={650} truncate="end">
                {resource.name}
              </Text>
              <Text size="xs" c="dimmed" truncate="end">
                {resource.component.name}
              </Text>
            </div>
          </Group>
        </UnstyledButton>
        <Group gap="xs" wrap="wrap" justify="flex-end" style={{ marginInlineStart: 'auto' }}>
          {deployed && (
            <Group gap={4} wrap="nowrap" title="Deployed commit" data-testid="deployed-commit">
              <IconGitCommit size={14} color="var(--mantine-color-dimmed)" />
              <Text size="xs" ff="monospace" c="dimmed">
                {versionLabel(deployed)}
              </Text>
            </Group>
          )}
          <StatusBadge status={resource.status} label={statusLabel(resource.status)} size="xs" />
          <Button size="xs" variant="light" leftSection={<IconSettings size={14} />} onClick={onConfigure}>
            Configure
          </Button>
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions of resource ${resource.name}`}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconSettings size={15} />} onClick={onConfigure}>
                Configure
              </Menu.Item>
              <Menu.Item leftSection={<IconCloudOff size={15} />} disabled={!mayChange || !can.undeploy} onClick={onUndeploy}>
                Undeploy
              </Menu.Item>
              <Menu.Item color="red" leftSection={<IconTrash size={15} />} disabled={!mayChange || !can.delete} onClick={onDelete}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
      <Collapse in={open}>
        <Stack gap="sm" mt="md" pl={30}>
          <Group gap="xl" data-testid="resource-facts">
            <div>
              <Text size="xs" c="dimmed">
                Branch
              </Text>
              <Text size="sm" ff="monospace">
                {branch || '—'}
              </Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                Commit
              </Text>
              <Text size="sm" ff="monospace" title={commit?.message}>
                {commit ? versionLabel(commit.name) : '—'}
              </Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                Configured version
              </Text>
              <Text size="sm" ff="monospace">
                {resource.componentVersion === RESOURCE_LATEST ? 'LATEST' : versionText(configured?.version ?? resource.componentVersion)}
              </Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                Inputs
              </Text>
              <Text size="sm">{resource.configurations.length}</Text>
            </div>
            {kubernetes && (
              <Anchor component={Link} to={`/kubernetes/clusters/${stage.id}-${resource.name}`} size="sm">
                Open cluster
              </Anchor>
            )}
          </Group>
          <Text size="sm" fw={600}>
            Output Parameters
          </Text>
          {!available || !resource.isDeployed ? (
            <Text size="sm" c="dimmed">
              Outputs are not available
            </Text>
          ) : outputs.isPending ? (
            <Text size="sm" c="dimmed">
              Loading outputs…
            </Text>
          ) : !outputs.data?.length ? (
            <Text size="sm" c="dimmed">
              No outputs parameters found
            </Text>
          ) : (
            <Table withTableBorder striped fz="sm" data-testid="resource-outputs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w="35%">Key</Table.Th>
                  <Table.Th>Value</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {outputs.data.map((o) => (
                  <Table.Tr key={o.key}>
                    <Table.Td ff="monospace">{o.key}</Table.Td>
                    <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {o.value}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      </Collapse>
    </Card>
  );
}
