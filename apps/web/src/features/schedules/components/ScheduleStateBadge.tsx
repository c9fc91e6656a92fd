import { Badge } from '@mantine/core';
import { scheduleStateLabel } from '@gantry/contracts';

/** ENABLED shows ACTIVE, DISABLED shows NOT ACTIVE (spec §2.10). */
export function ScheduleStateBadge({ state }: { state: 'ENABLED' | 'DISABLED' }) {
  return (
    <Badge variant="light" color={state === 'ENABLED' ? 'teal' : 'gray'} radius="sm" data-testid="schedule-state">
      {scheduleStateLabel(state)}
    </Badge>
  );
}
