import { Badge, type MantineColor } from '@mantine/core';
import { environmentStatusTone, type StatusTone } from '@gantry/contracts';

const toneColor: Record<StatusTone, MantineColor> = { success: 'teal', warning: 'yellow', fail: 'red', placeholder: 'gray' };

export interface StatusBadgeProps {
  /** A raw status; its tone follows the environment status rule unless `tone` is given. */
  status: string;
  tone?: StatusTone;
  color?: MantineColor;
  label?: string;
  size?: 'xs' | 'sm' | 'md';
}

/** A status as a small coloured badge. */
export function StatusBadge({ status, tone, color, label, size = 'sm' }: StatusBadgeProps) {
  const c = color ?? toneColor[tone ?? environmentStatusTone(status)];
  return (
    <Badge color={c} variant="light" size={size} radius="sm">
      {label ?? status.replace(/_/g, ' ')}
    </Badge>
  );
}
