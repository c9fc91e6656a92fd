import { Badge, Card, Group, Skeleton, Tabs, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ServiceStatusEntry } from '@gantry/contracts';
import { ClusterServicesTable, type ServiceRowAction } from './ClusterServicesTable';

/**
 * One tab per distinct namespace, the first selected (spec §2), each with the table of the services Gantry
 * deployed there; a namespace without any says there is no deployment information.
 */
export function NamespacesCard({
  clusterId,
  namespaces,
  loading,
  services,
  servicesLoading,
  servicesError,
  canWrite,
  onAction,
}: {
  clusterId: string;
  namespaces: string[] | undefined;
  loading: boolean;
  services: ServiceStatusEntry[] | undefined;
  servicesLoading: boolean;
  servicesError: string | null;
  canWrite: boolean;
  onAction: (a: ServiceRowAction) => void;
}) {
  const [tab, setTab] = useState<string | null>(null);
  useEffect(() => {
    if (namespaces?.length && (!tab || !namespaces.includes(tab))) setTab(namespaces[0]!);
  }, [namespaces, tab]);
  const inNamespace = (ns: string) => (services ?? []).filter((s) => s.namespace === ns);

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
            {namespaces.map((ns) => {
              const n = inNamespace(ns).length;
              return (
                <Tabs.Tab
                  key={ns}
                  value={ns}
                  ff="monospace"
                  rightSection={
                    n ? (
                      <Badge size="xs" variant="light">
                        {n}
                      </Badge>
                    ) : undefined
                  }
                >
                  {ns}
                </Tabs.Tab>
              );
            })}
          </Tabs.List>
          {namespaces.map((ns) => (
            <Tabs.Panel key={ns} value={ns} pt="xs">
              {servicesError ? (
                <Text size="sm" c="red" ta="center" py="lg">
                  {servicesError}
                </Text>
              ) : (
                <ClusterServicesTable clusterId={clusterId} rows={inNamespace(ns)} loading={servicesLoading} canWrite={canWrite} onAction={onAction} />
              )}
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Card>
  );
}
