import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { UPGRADE_PATH } from '../../../api/toast';

export const UPGRADE_MESSAGE = 'Upgrade your payment plan so you can use this feature';

/** The 402 of the pipeline list (spec §2): the server message; Cancel → /overview, Upgrade Now → /settings?tab=billing. */
export function UpgradeModal({ opened, message }: { opened: boolean; message?: string }) {
  const navigate = useNavigate();
  return (
    <Modal opened={opened} onClose={() => navigate('/overview')} withCloseButton={false} centered radius="md" title={null} data-testid="upgrade-modal">
      <Stack align="center" gap="sm" py="md" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="violet">
          <IconSparkles size={28} stroke={1.5} />
        </ThemeIcon>
        <Text fw={650} fz="lg">
          Upgrade required
        </Text>
        {message && message !== UPGRADE_MESSAGE && (
          <Text size="sm" maw={380} data-testid="upgrade-server-message">
            {message}
          </Text>
        )}
        <Text size="sm" c="dimmed" maw={380}>
          {UPGRADE_MESSAGE}
        </Text>
      </Stack>
      <Group justify="center" mt="md">
        <Button variant="default" onClick={() => navigate('/overview')}>
          Cancel
        </Button>
        <Button color="violet" onClick={() => navigate(UPGRADE_PATH)}>
          Upgrade Now
        </Button>
      </Group>
    </Modal>
  );
}
