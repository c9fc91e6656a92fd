import { Badge } from '@mantine/core';
import { scheduleStateLabel } from '@gantry/contracts';
import { BADGE_FIT } from '../../../ui/badge-fit';

/** ENABLED shows ACTIVE, DISABLED shows NOT ACTIVE (spec §2.10). */
export function ScheduleStateBadge({ state }: { state: 'ENABLED' | 'DISABLED' }) {
  return (
    <Badge variant="light" color={state === 'ENABLED' ? 'teal' : 'gray'} radius="sm" data-testid="schedule-state" {...BADGE_FIT}>
      {scheduleStateLabel(state)}
    </Badge>
  );
}
