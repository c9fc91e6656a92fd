import { Badge, type MantineSize } from '@mantine/core';

const STATUS_COLOR: Record<string, string> = { IN_PROGRESS: 'blue', SUCCEEDED: 'teal', FAILED: 'red', UNDEPLOYED: 'gray' };

/** The status of a service's deploy or undeploy (its history, the overview's timeline): IN PROGRESS, SUCCEEDED, FAILED, UNDEPLOYED. */
export function ServiceDeployBadge({ status, size, ...rest }: { status: string; size?: MantineSize; 'data-testid'?: string }) {
  return (
    <Badge color={STATUS_COLOR[status] ?? 'gray'} variant="light" radius="sm" size={size} {...rest}>
      {status.replace('_', ' ')}
    </Badge>
  );
}
