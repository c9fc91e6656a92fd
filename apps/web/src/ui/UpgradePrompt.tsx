import { Alert, Button, Group, Text } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { errorMessage, isPlanLimit } from '../api/errors';
import { UPGRADE_PATH } from '../api/toast';

export { UPGRADE_PATH };

/** Spec §8, 402: the plan does not allow the feature; an Upgrade Plan link leads to billing. */
export function UpgradePrompt({ message, compact }: { message?: string; compact?: boolean }) {
  return (
    <Alert
      variant="light"
      color="violet"
      radius="md"
      icon={<IconSparkles size={18} />}
      title={compact ? undefined : 'Upgrade required'}
      data-testid="upgrade-prompt"
    >
      <Group justify="space-between" wrap="nowrap" gap="md">
        <Text size="sm">{message ?? 'Your current plan does not include this feature.'}</Text>
        <Button component={Link} to={UPGRADE_PATH} size="xs" color="violet">
          Upgrade Plan
        </Button>
      </Group>
    </Alert>
  );
}

/** The first 402 among the errors of some queries or mutations, if any. */
export function usePlanGate(...errors: unknown[]): { limited: boolean; message?: string } {
  const gate = errors.find(isPlanLimit);
  return gate ? { limited: true, message: errorMessage(gate) } : { limited: false };
}

/** Shows the UpgradePrompt instead of its children when any of the errors is a 402. */
export function PlanGate({ errors, children }: { errors: unknown[]; children: ReactNode }) {
  const gate = usePlanGate(...errors);
  if (gate.limited) return <UpgradePrompt message={gate.message} />;
  return <>{children}</>;
}
