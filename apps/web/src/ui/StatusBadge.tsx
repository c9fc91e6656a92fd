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
  /**
   * Its words wrap where its column is narrow: a whole 'UPDATE ROLLBACK COMPLETE CLEANUP IN PROGRESS' on one line took
   * a table's room from its other columns (the stack events' reason ran past the page at 1280 px).
   */
  wrap?: boolean;
}

/**
 * A status as a small coloured badge. It keeps its whole word: a table squeezed by a narrow window shrank the status
 * column until the pipelines list read 'SUC…' for SUCCEEDED (Badge cuts its label); now the other columns wrap instead.
 */
export function StatusBadge({ status, tone, color, label, size = 'sm', wrap = false }: StatusBadgeProps) {
  const c = color ?? toneColor[tone ?? environmentStatusTone(status)];
  return (
    <Badge
      color={c}
      variant="light"
      size={size}
      radius="sm"
      {...(wrap
        ? { h: 'auto', py: 2, styles: { label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', lineHeight: 1.35 } } }
        : { miw: 'max-content' })}
    >
      {label ?? status.replace(/_/g, ' ')}
    </Badge>
  );
}
