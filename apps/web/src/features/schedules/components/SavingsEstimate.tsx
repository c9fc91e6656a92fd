import { Card, Group, Progress, Stack, Text } from '@mantine/core';
import { HOURS_PER_MONTH } from '@gantry/contracts';
import type { scheduleEstimate } from '../lib/schedule-form';
import { usd } from '../lib/schedule-form';
import { CardGrid } from '../../../ui/CardGrid';

function Figure({ label, value, testId, color }: { label: string; value: string; testId: string; color?: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={20} fw={700} c={color} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

/** The savings estimate of spec §9: the awake share of a 730-hour month and what the selected resources cost with and without the schedule. */
export function SavingsEstimate({ estimate, count }: { estimate: ReturnType<typeof scheduleEstimate>; count: number }) {
  return (
    <Card withBorder radius="md" padding="md" bg="var(--mantine-color-teal-0)" data-testid="savings-estimate">
      <Group justify="space-between" mb="xs">
        <Text fw={650}>Estimated savings</Text>
        <Text size="xs" c="dimmed">
          {estimate.utilizedHours} of {HOURS_PER_MONTH} hours a month awake ({estimate.utilizedPercent}%)
        </Text>
      </Group>
      <Progress value={estimate.utilizedPercent} color="teal" size="sm" radius="xl" mb="md" />
      {/* columns from the card's own width, as many 150 px figures as it holds ('Cost with schedule' on one line) */}
      <CardGrid minWidth={150} max={4}>
        <Figure label="Saving" value={`${estimate.savingPercent}%`} testId="saving-percent" color="teal.8" />
        <Figure label="Saved per month" value={usd(estimate.monthlySaving)} testId="monthly-saving" color="teal.8" />
        <Figure label="Cost with schedule" value={usd(estimate.monthlyWith)} testId="monthly-with" />
        <Figure label="Cost without" value={usd(estimate.monthlyWithout)} testId="monthly-without" />
      </CardGrid>
      <Text size="xs" c="dimmed" mt="sm">
        On-demand compute of {count === 1 ? '1 selected resource' : `${count} selected resources`}
        {count > estimate.priced ? ` (${count - estimate.priced} without a published price)` : ''}; storage is billed whether they sleep or not.
      </Text>
    </Card>
  );
}
