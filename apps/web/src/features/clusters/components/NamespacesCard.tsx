import { Card, Group, Skeleton, Tabs, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { NO_DEPLOYMENT_INFO } from '../lib/cluster-status';

/**
 * One tab per distinct namespace, the first selected (spec §2). Services per namespace come in a later
 * slice; for now each tab says there is no deployment information.
 */
export function NamespacesCard({ namespaces, loading }: { namespaces: string[] | undefined; loading: boolean }) {
  const [tab, setTab] = useState<string | null>(null);
  useEffect(() => {
    if (namespaces?.length && (!tab || !namespaces.includes(tab))) setTab(namespaces[0]!);
  }, [namespaces, tab]);

  return (
    <Card withBorder radius="md" padding="lg" data-testid="namespaces-card">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Namespaces</Text>
        {namespaces && (
          <Text size="xs" c="dimmed">
            {namespaces.length === 1 ? '1 namespace' : `${namespaces.length} namespaces`}
          </Text>
        )}
      </Group>
      {loading ? (
        <Skeleton height={80} radius="sm" />
      ) : !namespaces?.length ? (
        <Text size="sm" c="dimmed" ta="center" py="lg">
          No data available
        </Text>
      ) : (
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List style={{ flexWrap: 'wrap' }}>
            {namespaces.map((ns) => (
              <Tabs.Tab key={ns} value={ns} ff="monospace">
                {ns}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {namespaces.map((ns) => (
            <Tabs.Panel key={ns} value={ns} pt="md">
              <Text size="sm" c="dimmed" ta="center" py="lg" data-testid="namespace-empty">
                {NO_DEPLOYMENT_INFO}
              </Text>
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Card>
  );
}
