import { Anchor, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';

/**
 * Add to Environment (spec §2): lists the project's environments; Add is disabled until one is
 * chosen; with no environments it links to /environments/create. Environments arrive in a later
 * release, so the list is empty for now and the dialog shows the no-environment state.
 */
export function AddToEnvironmentModal({ opened, onClose, componentName }: { opened: boolean; onClose: () => void; componentName: string }) {
  const environments: { value: string; label: string }[] = [];
  const [stageId, setStageId] = useState<string | null>(null);
  const close = () => {
    setStageId(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={<Text fw={600}>Add to Environment</Text>} centered radius="md">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Add {componentName} as a resource of one of your environments.
        </Text>
        {environments.length === 0 ? (
          <Text size="sm" data-testid="no-environments">
            There are no environments in this project yet.{' '}
            <Anchor component={Link} to="/environments/create" onClick={close}>
              Create Environment
            </Anchor>
          </Text>
        ) : (
          <Select label="Environment" placeholder="Select an environment" data={environments} value={stageId} onChange={setStageId} maxDropdownHeight={300} />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button disabled={!stageId}>Add</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
