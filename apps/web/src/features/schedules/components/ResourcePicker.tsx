import { Badge, Checkbox, Group, SegmentedControl, Skeleton, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import type { CloudResource, CloudResources, ResourceRef, ResourceType } from '@gantry/contracts';
import { hourly, refKey, usd } from '../lib/schedule-form';
import { BADGE_FIT } from '../../../ui/badge-fit';

const TYPE_LABEL: Record<ResourceType, string> = { ec2: 'EC2', asg: 'Auto Scaling', rds: 'RDS' };
const TYPE_COLOR: Record<ResourceType, string> = { ec2: 'orange', asg: 'indigo', rds: 'blue' };

function Tags({ tags }: { tags: CloudResource['tags'] }) {
  if (!tags.length)
    return (
      <Text size="xs" c="dimmed">
        —
      </Text>
    );
  const shown = tags.slice(0, 2);
  return (
    <Group gap={4} wrap="wrap">
      {shown.map((t) => (
        <Badge key={t.key} size="xs" variant="outline" color="gray" radius="sm" tt="none" maw={180}>
          {t.key}={t.value}
        </Badge>
      ))}
      {tags.length > 2 && (
        <Tooltip
          label={tags
            .slice(2)
            .map((t) => `${t.key}=${t.value}`)
            .join(', ')}
          multiline
          maw={320}
          withArrow
        >
          <Badge size="xs" variant="light" color="gray" radius="sm">
            +{tags.length - 2}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}

/** Storage and EBS prices of a resource per month, when AWS Pricing knows them. */
function storage(r: CloudResource): string {
  const ebs = r.ebsData.reduce((s, v) => s + (v.monthlyPrice ?? 0), 0);
  const parts: string[] = [];
  if (r.storagePrice !== null) parts.push(`${usd(r.storagePrice)}/mo storage`);
  if (r.ebsData.length) parts.push(`${usd(ebs)}/mo EBS (${r.ebsData.reduce((s, v) => s + v.sizeGb, 0)} GB)`);
  return parts.join(' · ') || '—';
}

/**
 * The account's EC2 instances, Auto Scaling groups and RDS instances to put on the schedule (spec §2.10): price,
 * storage and EBS prices, instance type, tags, group capacities, state. The Saving column shows active for a resource
 * that is not running (running or available counts as running).
 */
export function ResourcePicker({
  resources,
  loading,
  selected,
  onChange,
  error,
}: {
  resources: CloudResources | undefined;
  loading: boolean;
  selected: ResourceRef[];
  onChange: (next: ResourceRef[]) => void;
  error?: string;
}) {
  const [filter, setFilter] = useState<'all' | ResourceType>('all');
  const all = resources ? [...resources.ec2, ...resources.asg, ...resources.rds] : [];
  const rows = filter === 'all' ? all : all.filter((r) => r.type === filter);
  const picked = new Set(selected.map(refKey));
  const toggle = (r: CloudResource) =>
    onChange(picked.has(refKey(r)) ? selected.filter((s) => refKey(s) !== refKey(r)) : [...selected, { type: r.type, id: r.id }]);
  const count = (t: ResourceType) => resources?.[t].length ?? 0;

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <SegmentedControl
          size="xs"
          value={filter}
          onChange={(v) => setFilter(v as typeof filter)}
          data={[
            { value: 'all', label: `All (${all.length})` },
            { value: 'ec2', label: `EC2 (${count('ec2')})` },
            { value: 'asg', label: `Auto Scaling (${count('asg')})` },
            { value: 'rds', label: `RDS (${count('rds')})` },
          ]}
        />
        <Text size="xs" c="dimmed" data-testid="selected-count">
          {selected.length} selected
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="xs" horizontalSpacing="sm" highlightOnHover data-testid="resource-picker">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={36} />
              {['Resource', 'Type', 'State', 'Saving', 'Price', 'Storage', 'Tags'].map((h) => (
                <Table.Th key={h}>
                  <Text size="xs" fw={600} tt="uppercase" c="dimmed">
                    {h}
                  </Text>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {loading ? (
              [0, 1, 2].map((i) => (
                <Table.Tr key={i}>
                  <Table.Td colSpan={8}>
                    <Skeleton height={14} radius="sm" />
                  </Table.Td>
                </Table.Tr>
              ))
            ) : rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text size="sm" c="dimmed" ta="center" py="md">
                    {resources ? 'No resources of this kind in this account and region' : 'Pick an account and a region to list their resources'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((r) => (
                <Table.Tr key={refKey(r)} style={{ cursor: 'pointer' }} onClick={() => toggle(r)} data-testid="resource-row">
                  <Table.Td>
                    <Checkbox checked={picked.has(refKey(r))} onChange={() => toggle(r)} onClick={(e) => e.stopPropagation()} aria-label={`Select ${r.name}`} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={600} truncate="end" maw={220}>
                      {r.name}
                    </Text>
                    <Text size="xs" c="dimmed" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                      {r.id}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="light" color={TYPE_COLOR[r.type]} radius="sm" tt="none" {...BADGE_FIT}>
                      {TYPE_LABEL[r.type]}
                    </Badge>
                    <Text size="xs" c="dimmed" mt={2}>
                      {r.instanceType ?? ''}
                      {r.asgGroupCapacity && ` · ${r.asgGroupCapacity.desiredCapacity} (min ${r.asgGroupCapacity.minSize}, max ${r.asgGroupCapacity.maxSize})`}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="dot" color={r.running ? 'teal' : 'gray'} tt="none" {...BADGE_FIT}>
                      {r.state}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {!r.running && (
                      <Badge size="sm" variant="light" color="teal" data-testid="saving-active" {...BADGE_FIT}>
                        active
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{hourly(r.price)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {storage(r)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Tags tags={r.tags} />
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
