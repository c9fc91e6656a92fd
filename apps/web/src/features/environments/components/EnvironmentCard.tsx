import { Card, Group, Stack, Text, ThemeIcon, Badge } from '@mantine/core';
import { IconServer2 } from '@tabler/icons-react';
import { type Stage } from '@gantry/contracts';
import { AdvisorSummary } from '../../advisor';
import { StatusBadge } from '../../../ui/StatusBadge';
import { providerLabel, statusLabel, toolLabel } from '../lib/labels';
import { CostTeaser } from './CostTeaser';
import { EnvironmentMenu } from './EnvironmentMenu';
import { LastDeployed } from './LastDeployed';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <div style={{ textAlign: 'right', minWidth: 0 }}>{children}</div>
    </Group>
  );
}

/**
 * An environment card (spec §2): provider, tool, status, last deployed; for AWS environments the
 * Saving Schedule line and the advisor part (the teaser when the plan has no cost tools).
 */
export function EnvironmentCard({
  stage,
  schedule,
  costBlocked,
  onOpen,
  onUndeploy,
  onDelete,
}: {
  stage: Stage;
  schedule: 'ACTIVE' | 'NOT ACTIVE' | null;
  costBlocked: boolean;
  onOpen: () => void;
  onUndeploy: () => void;
  onDelete: () => void;
}) {
  const aws = stage.cloudProvider === 'aws' && stage.awsAccountId && stage.awsRegion;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="environment-card" style={{ cursor: 'pointer' }} onClick={onOpen}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <ThemeIcon size={38} radius="md" variant="light" color="indigo">
            <IconServer2 size={20} stroke={1.6} />
          </ThemeIcon>
          <div style={{ minWidth: 0 }}>
            <Text fw={650} truncate="end" data-testid="environment-name">
              {stage.name}
            </Text>
            <Text size="xs" c="dimmed" truncate="end">
              {stage.description}
            </Text>
          </div>
        </Group>
        <EnvironmentMenu stage={stage} onUndeploy={onUndeploy} onDelete={onDelete} />
      </Group>
      <Stack gap={8} mt="md">
        <Fact label="Cloud Provider">
          <Text size="sm">{providerLabel(stage.cloudProvider)}</Text>
        </Fact>
        <Fact label="IaC Tool">
          <Text size="sm">{toolLabel(stage.infrastructureAsCodeTool)}</Text>
        </Fact>
        <Fact label="Status">
          <StatusBadge status={stage.status} label={statusLabel(stage.status)} size="xs" />
        </Fact>
        <Fact label="Last Deployed">
          <LastDeployed stage={stage} />
        </Fact>
        {aws && !costBlocked && (
          <Fact label="Saving Schedule">
            <Badge size="xs" variant="light" color={schedule === 'ACTIVE' ? 'teal' : 'gray'} data-testid="saving-schedule">
              {schedule ?? 'NOT ACTIVE'}
            </Badge>
          </Fact>
        )}
      </Stack>
      {aws &&
        (costBlocked ? (
          <div style={{ marginTop: 12 }}>
            <CostTeaser compact />
          </div>
        ) : (
          <AdvisorSummary stageId={stage.id} awsAccountId={stage.awsAccountId!} awsRegion={stage.awsRegion!} />
        ))}
    </Card>
  );
}
