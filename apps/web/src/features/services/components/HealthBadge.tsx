import { Badge } from '@mantine/core';

/** Spec §4: service health is HEALTHY or FAILED. */
export const HealthBadge = ({ health }: { health: 'HEALTHY' | 'FAILED' }) => (
  <Badge color={health === 'HEALTHY' ? 'teal' : 'red'} variant="light" radius="sm" data-testid="service-health">
    {health}
  </Badge>
);
