import type { MantineColor } from '@mantine/core';
import { StatusBadge, type StatusBadgeProps } from '../../../ui/StatusBadge';

const STATUS_COLOR: Record<string, MantineColor> = { IN_PROGRESS: 'blue', SUCCEEDED: 'teal', FAILED: 'red', UNDEPLOYED: 'gray' };

/** The status of a service's deploy or undeploy (its history, the overview's timeline): IN PROGRESS, SUCCEEDED, FAILED, UNDEPLOYED. */
export function ServiceDeployBadge({ status, size }: { status: string; size?: StatusBadgeProps['size'] }) {
  return <StatusBadge status={status} color={STATUS_COLOR[status] ?? 'gray'} size={size} />;
}
