import { Tooltip } from '@mantine/core';
import type { ProjectAction } from '@gantry/contracts';
import type { ReactElement } from 'react';
import { useProjectPermission } from '../api/permissions';

/**
 * An action the member's role may not take: its control is rendered disabled, with a tooltip saying
 * why (a wrapper takes the hover, as a disabled button does not). `hide` leaves it out instead.
 */
export function Permitted({ action, hide, children }: { action: ProjectAction; hide?: boolean; children: (disabled: boolean) => ReactElement }) {
  const why = useProjectPermission().refusal(action);
  if (!why) return children(false);
  if (hide) return null;
  return (
    <Tooltip label={why} withArrow multiline maw={280}>
      <span style={{ display: 'inline-flex' }} data-refused={action}>
        {children(true)}
      </span>
    </Tooltip>
  );
}
