import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconDatabase, IconLoadBalancer, IconServer2 } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ADVISOR_RULES, advisorSummaries, type AdvisorStats } from '@gantry/contracts';
import { BADGE_FIT } from '../../../ui/badge-fit';

function Section({
  icon,
  color,
  title,
  rule,
  summaries,
  failed,
  children,
  testId,
}: {
  icon: ReactNode;
  color: string;
  title: string;
  rule: string;
  summaries: { text: string; flagged: boolean; testId: string }[];
  failed: (string | null)[];
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId}>
      <Group gap="sm" wrap="nowrap" mb="sm">
        <ThemeIcon size={38} radius="md" variant="light" color={color}>
          {icon}
        </ThemeIcon>
        <div>
          <Text fw={650}>{title}</Text>
          <Text size="xs" c="dimmed">
            {rule}
          </Text>
        </div>
      </Group>
      <Stack gap={6} mb="sm">
        {summaries.map((s) => (
          <Text key={s.testId} size="sm" fw={600} c={s.flagged ? 'orange.8' : 'teal.8'} data-testid={s.testId}>
            {s.text}
          </Text>
        ))}
        {failed.filter(Boolean).map((e) => (
          <Group key={e} gap={6} wrap="nowrap">
            <IconAlertTriangle size={14} color="var(--mantine-color-red-6)" />
            <Text size="xs" c="red">
              {e}
            </Text>
          </Group>
        ))}
      </Stack>
      {children}
    </Card>
  );
}

function Rows({ head, rows }: { head: string[]; rows: ReactNode[][] }) {
  if (!rows.length)
    return (
      <Text size="xs" c="dimmed">
        Nothing to act on.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={0}>
      <Table verticalSpacing={6} horizontalSpacing="xs" fz="xs" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            {head.map((h, j) => (
              <Table.Th key={h} ta={j === head.length - 1 ? 'right' : undefined} w={j === head.length - 1 ? 96 : undefined}>
                <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                  {h}
                </Text>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr key={i}>
              {r.map((c, j) => (
                <Table.Td key={j} ta={j === r.length - 1 ? 'right' : undefined} w={j === r.length - 1 ? 96 : undefined}>
                  {c}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A resource cell: its name (or id) on top, its id or details below, both cut to the cell. */
const who = (top: string, below: string | null, monoTop = false) => (
  <div style={{ minWidth: 0 }}>
    <Text size="xs" fw={600} ff={monoTop ? 'monospace' : undefined} truncate="end" title={top}>
      {top}
    </Text>
    {below && (
      <Text size="xs" c="dimmed" ff="monospace" truncate="end" title={below}>
        {below}
      </Text>
    )}
  </div>
);

/** The three result cards of spec §2.10 with the rules of §9 and the resources behind each summary. */
export function AdvisorCards({ stats }: { stats: AdvisorStats }) {
  const s = advisorSummaries(stats);
  const r = ADVISOR_RULES;
  const idleLbs = [...stats.elb.classicELBStats.idleLoadBalancers, ...stats.elb.nonClassicELBStats.idleLoadBalancers];
  return (
    <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="lg">
      <Section
        testId="advisor-ec2"
        icon={<IconServer2 size={20} />}
        color="orange"
        title="EC2 low utilisation"
        rule={`Daily CPU ≤ ${r.ec2CpuPercentMax}% and network I/O ≤ 5 MB on ${r.ec2LowDaysMin}+ of the last ${r.ec2Days} days`}
        summaries={[{ text: s.ec2, flagged: stats.ec2.lowUtilizationInstances.length > 0, testId: 'advisor-ec2-summary' }]}
        failed={[stats.ec2.status === 'FAILED' ? stats.ec2.error : null]}
      >
        <Rows
          head={['Instance', 'Low days']}
          rows={stats.ec2.lowUtilizationInstances.map((i) => [
            who(i.name ?? i.instanceId, [i.name ? i.instanceId : null, i.instanceType].filter(Boolean).join(' · ') || null, !i.name),
            <Stack key="d" gap={0} align="flex-end">
              <Badge size="xs" variant="light" color="orange" {...BADGE_FIT}>
                {i.lowDays}/{r.ec2Days}
              </Badge>
              {i.averageCpuPercent !== null && (
                <Text size="10px" c="dimmed">
                  CPU {i.averageCpuPercent.toFixed(1)}%
                </Text>
              )}
            </Stack>,
          ])}
        />
      </Section>
      <Section
        testId="advisor-elb"
        icon={<IconLoadBalancer size={20} />}
        color="grape"
        title="Idle load balancers"
        rule={`Fewer than ${r.lbRequestsPerDayMin} requests, connections or flows a day over ${r.lbDays} days`}
        summaries={[
          { text: s.classicElb, flagged: stats.elb.classicELBStats.idleLoadBalancers.length > 0, testId: 'advisor-classic-summary' },
          { text: s.nonClassicElb, flagged: stats.elb.nonClassicELBStats.idleLoadBalancers.length > 0, testId: 'advisor-nonclassic-summary' },
        ]}
        failed={[
          stats.elb.classicELBStats.status === 'FAILED' ? stats.elb.classicELBStats.error : null,
          stats.elb.nonClassicELBStats.status === 'FAILED' ? stats.elb.nonClassicELBStats.error : null,
        ]}
      >
        <Rows head={['Load balancer', 'Busiest day']} rows={idleLbs.map((lb) => [who(lb.name, lb.type), String(lb.maxDailyCount)])} />
      </Section>
      <Section
        testId="advisor-rds"
        icon={<IconDatabase size={20} />}
        color="blue"
        title="Idle RDS DB instances"
        rule={`No connections over ${r.rdsDays} days`}
        summaries={[{ text: s.rds, flagged: stats.rds.idleRelationalDBResources.length > 0, testId: 'advisor-rds-summary' }]}
        failed={[stats.rds.status === 'FAILED' ? stats.rds.error : null]}
      >
        <Rows
          head={['DB instance', 'Conns']}
          rows={stats.rds.idleRelationalDBResources.map((d) => [
            who(d.dbInstanceIdentifier, [d.engine, d.dbInstanceClass].filter(Boolean).join(' · ') || null, true),
            String(d.maxConnections),
          ])}
        />
      </Section>
    </SimpleGrid>
  );
}
