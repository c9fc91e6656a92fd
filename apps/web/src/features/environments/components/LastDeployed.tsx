import { Text } from '@mantine/core';
import { stageLastDeployed } from '@gantry/contracts';
import { RelativeTime } from '../../../ui/RelativeTime';

/** An environment's Last Deployed: relative time, or N/A while not deployed (spec §4). */
export function LastDeployed({ stage }: { stage: Parameters<typeof stageLastDeployed>[0] }) {
  const at = stageLastDeployed(stage);
  return at ? <RelativeTime date={at} size="sm" /> : <Text size="sm">N/A</Text>;
}
