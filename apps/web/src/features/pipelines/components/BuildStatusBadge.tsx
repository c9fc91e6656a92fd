import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { StatusBadge } from '../../../ui/StatusBadge';
import { buildStatusDisplay } from '../lib/status';

/** A build status badge (NO BUILD when none); a link to the build page when `to` is given. */
export function BuildStatusBadge({ status, to, size = 'sm' }: { status: string | null | undefined; to?: string; size?: 'xs' | 'sm' | 'md' }) {
  const d = buildStatusDisplay(status);
  const badge = <StatusBadge status={d.label} label={d.label} color={d.color} size={size} />;
  if (!to || d.cls === 'nobuild') return <span data-testid="build-status">{badge}</span>;
  return (
    <Anchor component={Link} to={to} underline="never" data-testid="build-status" aria-label={`Build status ${d.label}`}>
      {badge}
    </Anchor>
  );
}
