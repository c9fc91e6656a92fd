import { Badge, Card, Collapse, Group, Stack, Table, Text, UnstyledButton, Anchor } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { deploymentCardSuccess, statusClass, stackStatusDisplay, type Deployment } from '@gantry/contracts';
import { RelativeTime } from '../../../ui/RelativeTime';
import { Breakable } from './Breakable';

const classColor = { warning: 'yellow', fail: 'red', queued: 'blue', nobuild: 'gray', aborted: 'gray', success: 'teal' } as const;
const KIND_LABEL: Record<Deployment['kind'], string> = {
  DEPLOY: 'Quick deploy',
  PLAN_APPLY: 'Plan applied',
  UNDEPLOY: 'Undeploy',
  UNDEPLOY_RESOURCE: 'Undeploy resource',
};
const duration = (ms: number | null) =>
  ms === null ? '—' : ms < 60_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

/**
 * One deployment of the history (spec §2 "Deployment insights"): success only when it is the current
 * deployment; the last good versions when a failed one has them (the rollback check).
 */
export function DeploymentCard({
  d,
  stageId,
  currentDeploymentId,
  open,
  onToggle,
  lastGood,
}: {
  d: Deployment;
  stageId: string;
  currentDeploymentId: string | null;
  open: boolean;
  onToggle: () => void;
  lastGood: Record<string, { version: string | null }> | null;
}) {
  const cls = statusClass(d.status);
  const color = cls === 'success' && !deploymentCardSuccess(d, currentDeploymentId) ? 'gray' : classColor[cls];
  const errors = Object.entries(d.logs).flatMap(([resource, l]) => l.errorMessages.map((m) => ({ resource, ...m })));
  return (
    <Card withBorder radius="md" padding="md" id={d.id} data-testid="deployment-card" style={{ borderLeft: `4px solid var(--mantine-color-${color}-5)` }}>
      <UnstyledButton onClick={onToggle} w="100%" aria-expanded={open}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {open ? <IconChevronDown size={18} /> : <IconChevronRight size={18} />}
            <div>
              <Group gap="xs">
                <Text fw={650}>
                  {KIND_LABEL[d.kind]}
                  {d.resourceName ? ` · ${d.resourceName}` : ''}
                </Text>
                <Badge color={color} variant="light" size="sm" data-testid="deployment-status">
                  {stackStatusDisplay(d.status)}
                </Badge>
                {d.id === currentDeploymentId && (
                  <Badge variant="outline" size="xs" color="teal">
                    current
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                <RelativeTime date={d.timestamp} size="xs" span /> · {d.id.slice(0, 8)}
              </Text>
            </div>
          </Group>
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="deployment-duration">
            {duration(d.durationMs)}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse in={open}>
        <Stack gap="sm" mt="md" pl={30}>
          {d.error && (
            <Text size="sm" c="red" style={{ whiteSpace: 'pre-wrap' }} data-testid="deployment-error">
              {d.error}
            </Text>
          )}
          {/* a narrow card (a phone's width) scrolls its resources, not past its edge */}
          <Table.ScrollContainer minWidth={280} type="native">
            <Table withTableBorder fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Resource</Table.Th>
                  <Table.Th>Component</Table.Th>
                  <Table.Th>Version</Table.Th>
                  {lastGood && <Table.Th>Last good version</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.resources.map((r) => (
                  <Table.Tr key={r.name}>
                    <Table.Td fw={600}>{r.name}</Table.Td>
                    <Table.Td>{r.component.name}</Table.Td>
                    <Table.Td ff="monospace">{r.version?.slice(0, 7) ?? '—'}</Table.Td>
                    {lastGood && <Table.Td ff="monospace">{lastGood[r.name]?.version?.slice(0, 7) ?? '—'}</Table.Td>}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {errors.length > 0 && (
            <Table withTableBorder fz="sm" data-testid="deployment-errors">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Resource</Table.Th>
                  <Table.Th>Logical id</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Reason</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {errors.map((e, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{e.resource}</Table.Td>
                    <Table.Td>
                      <Breakable text={e.logicalResourceId} />
                    </Table.Td>
                    <Table.Td>
                      <Breakable text={e.resourceType} />
                    </Table.Td>
                    {/* a cause holds long words (a nested stack's ARN, a request id): they break anywhere, so the table keeps to the card */}
                    <Table.Td>
                      <div style={{ minWidth: 140, overflowWrap: 'anywhere' }}>{e.statusReason}</div>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group gap="md">
            <Text size="xs" c="dimmed">
              Started {d.startedAt ? new Date(d.startedAt).toLocaleString() : '—'} · Finished {d.finishedAt ? new Date(d.finishedAt).toLocaleString() : '—'}
            </Text>
            <Anchor component={Link} to={`/environments/${stageId}/details?deploymentId=${d.id}`} size="sm">
              View logs
            </Anchor>
          </Group>
        </Stack>
      </Collapse>
    </Card>
  );
}
