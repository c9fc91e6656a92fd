import { Alert, Badge, Checkbox, Code, Group, ScrollArea, Select, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { Pod } from '@gantry/contracts';
import { errorMessage } from '../../../api/errors';
import { useFollowPodLogs } from '../api/follow-pod-logs';
import { usePodLogs } from '../api/in-cluster';
import type { ServiceInCluster } from '../api/deployments';

const podLabel = (p: Pod) => `${p.metadata.name} · ${p.status.reason ?? p.status.phase}${p.status.restarts ? ` · ${p.status.restarts} restarts` : ''}`;

/**
 * Logs (spec §2): a pod picker; the log read once, every 5 seconds with auto-refresh on, or followed live; the
 * previous container's log of a pod that restarted.
 */
export function LogsTab({
  projectId,
  target,
  pods,
  podsLoading,
}: {
  projectId: string;
  target: ServiceInCluster;
  pods: Pod[] | undefined;
  podsLoading: boolean;
}) {
  const [pod, setPod] = useState<string | null>(null);
  const [autoRefresh, setAutoRefresh] = useState(false);
  const [follow, setFollow] = useState(false);
  const [previous, setPrevious] = useState(false);
  const chosen = pod && pods?.some((p) => p.metadata.name === pod) ? pod : (pods?.[0]?.metadata.name ?? null);
  const logs = usePodLogs(projectId, target, chosen, { previous, autoRefresh, enabled: !follow });
  const live = useFollowPodLogs(projectId, target, follow && !previous ? chosen : null);
  const text = follow && !previous ? live.text : (logs.data?.logs ?? '');
  const viewport = useRef<HTMLDivElement>(null);
  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [text]);

  if (podsLoading) return <Skeleton height={240} radius="md" />;
  if (!pods?.length) {
    return (
      <Text size="sm" c="dimmed" ta="center" py="xl">
        No pods: the service has no running pods in this namespace.
      </Text>
    );
  }
  const error = follow && !previous ? live.error : logs.error ? errorMessage(logs.error) : null;
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Select
          aria-label="Pod"
          data={pods.map((p) => ({ value: p.metadata.name, label: podLabel(p) }))}
          value={chosen}
          onChange={setPod}
          allowDeselect={false}
          w={460}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <Group gap="lg">
          <Checkbox label="Previous container" checked={previous} onChange={(e) => setPrevious(e.currentTarget.checked)} />
          <Switch label="Auto-refresh (5 s)" checked={autoRefresh && !follow} disabled={follow} onChange={(e) => setAutoRefresh(e.currentTarget.checked)} />
          <Switch label="Follow live" checked={follow} disabled={previous} onChange={(e) => setFollow(e.currentTarget.checked)} />
          {follow && !previous && (
            <Badge color={live.following ? 'teal' : 'gray'} variant="dot">
              {live.following ? 'live' : live.ended ? 'ended' : 'stopped'}
            </Badge>
          )}
        </Group>
      </Group>
      {error && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />} p="xs">
          <Text size="sm">{error}</Text>
        </Alert>
      )}
      <ScrollArea h={420} viewportRef={viewport} type="auto" style={{ borderRadius: 8, background: 'var(--mantine-color-dark-8)' }}>
        {logs.isPending && !follow ? (
          <Text c="gray.5" size="sm" p="md">
            Loading logs…
          </Text>
        ) : (
          <Code block c="gray.2" bg="transparent" fz="xs" data-testid="pod-logs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {text || 'No log lines yet.'}
          </Code>
        )}
      </ScrollArea>
    </Stack>
  );
}
