import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Schedule } from '@gantry/contracts';

/**
 * Disabling a schedule (spec §2.10, §4) offers to start the affected resources: a schedule turned off at night would
 * otherwise leave them asleep until someone starts them.
 */
export function DisableScheduleModal({
  schedule,
  busy,
  onDisable,
  onClose,
}: {
  schedule: Schedule | null;
  busy: boolean;
  onDisable: (startResources: boolean) => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={Boolean(schedule)} onClose={busy ? () => undefined : onClose} title={<Text fw={600}>Disable schedule</Text>} centered radius="md">
      <Stack gap="sm">
        <Text size="sm">
          <b>{schedule?.name}</b> will no longer stop and start its resources.
        </Text>
        <Text size="sm" c="dimmed">
          Resources it has put to sleep stay stopped unless you start them now.
        </Text>
      </Stack>
      <Group justify="flex-end" mt="xl">
        <Button variant="default" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="light" onClick={() => onDisable(false)} disabled={busy}>
          Disable only
        </Button>
        <Button onClick={() => onDisable(true)} loading={busy}>
          Disable and start resources
        </Button>
      </Group>
    </Modal>
  );
}
