import { Card, Group, Progress, Stack, Text } from '@mantine/core';
import { deploymentMinutes } from '@gantry/contracts';
import { useDeploymentTime } from '../api/deployments';

/** Environment metrics view (spec §2): this month's deployment time per environment, in whole minutes. */
export function DeploymentTimePanel({ projectId, highlight }: { projectId: string; highlight?: string }) {
  const time = useDeploymentTime(projectId);
  const stages = [...(time.data?.stages ?? [])].sort((a, b) => b.deploymentTime - a.deploymentTime);
  const max = Math.max(1, ...stages.map((s) => s.deploymentTime));
  return (
    <Card withBorder radius="md" padding="md" data-testid="deployment-time-panel">
      {/* the title over its total: side by side they need more than the insights' column beside the list */}
      <Stack gap={2} mb="xs">
        <Text fw={650}>Deployment time this month</Text>
        <Text size="sm" c="dimmed">
          {deploymentMinutes(time.data?.deploymentTime ?? 0)} min in all
        </Text>
      </Stack>
      <Stack gap={10}>
        {!stages.length && (
          <Text size="sm" c="dimmed">
            No data available
          </Text>
        )}
        {stages.map((s) => (
          <div key={s.stageId}>
            <Group justify="space-between" gap="xs">
              <Text size="sm" fw={s.stageId === highlight ? 650 : 400}>
                {s.name}
              </Text>
              <Text size="sm" c="dimmed">
                {deploymentMinutes(s.deploymentTime)} min
              </Text>
            </Group>
            <Progress value={(s.deploymentTime / max) * 100} color={s.stageId === highlight ? 'indigo' : 'gray'} size="sm" mt={4} />
          </div>
        ))}
      </Stack>
    </Card>
  );
}
