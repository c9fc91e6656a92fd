import type { MantineColor } from '@mantine/core';
import { buildStatusClass } from '@gantry/contracts';

export const NO_BUILD = 'NO BUILD';

const classColor: Record<ReturnType<typeof buildStatusClass>, MantineColor> = {
  warning: 'yellow',
  success: 'teal',
  fail: 'red',
  aborted: 'gray',
  queued: 'blue',
  nobuild: 'gray',
};

/** Badge colour and label of a build status (spec §4); unknown or missing → NO BUILD. */
export function buildStatusDisplay(status: string | null | undefined): { color: MantineColor; label: string; cls: ReturnType<typeof buildStatusClass> } {
  const cls = buildStatusClass(status);
  return { cls, color: classColor[cls], label: cls === 'nobuild' ? NO_BUILD : String(status) };
}

/** Why a step was skipped (a deploy whose branch filter the build's branch does not match), or null when it ran. */
export function skippedReason(step: { reports: Record<string, unknown> | null }): string | null {
  const reason = step.reports?.skipped;
  return typeof reason === 'string' ? reason : null;
}
