import { Badge, Card, Group, Skeleton, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import type { ServiceStatusEntry } from '@gantry/contracts';
import { ClusterServicesTable, type ServiceRowAction } from './ClusterServicesTable';

/**
 * One tab per distinct namespace, the first selected (spec §2), each with the table of the services Gantry
 * deployed there; a namespace without any says there is no deployment information. A rollout being followed
 * (`followNamespace`: a deploy from a service's page or this dashboard) selects its namespace instead: after
 * Add to Cluster the dashboard opened on the first namespace, 'No deployment information available', the
 * service just deployed a tab away.
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
  followNamespace = null,
}: {
  clusterId: string;
  namespaces: string[] | undefined;
  loading: boolean;
  services: ServiceStatusEntry[] | undefined;
  servicesLoading: boolean;
  servicesError: string | null;
  canWrite: boolean;
  onAction: (a: ServiceRowAction) => void;
  followNamespace?: string | null;
}) {
  const [tab, setTab] = useState<string | null>(null);
  // the last rollout followed, kept once its modal closes; a new one moves the tab again
  const [followed, setFollowed] = useState(followNamespace);
  if (followNamespace && followNamespace !== followed) {
    setFollowed(followNamespace);
    setTab(null);
  }
  const listed = (ns: string | null) => (ns && namespaces?.includes(ns) ? ns : null);
  const shown = listed(tab) ?? listed(followed) ?? namespaces?.[0] ?? null;
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
        <Tabs value={shown} onChange={setTab} keepMounted={false}>
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
