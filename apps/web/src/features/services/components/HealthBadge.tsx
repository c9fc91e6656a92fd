import { Badge } from '@mantine/core';
import { BADGE_FIT } from '../../../ui/badge-fit';

/** Spec §4: service health is HEALTHY or FAILED. */
export const HealthBadge = ({ health }: { health: 'HEALTHY' | 'FAILED' }) => (
  <Badge color={health === 'HEALTHY' ? 'teal' : 'red'} variant="light" radius="sm" data-testid="service-health" {...BADGE_FIT}>
    {health}
  </Badge>
);
