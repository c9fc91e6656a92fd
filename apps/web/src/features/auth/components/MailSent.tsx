import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The body of a "we sent you an e-mail" screen: an icon, the lines, the address and a way back to login. */
export function MailSent({ lines, email, backLabel = 'Back to Login' }: { lines: ReactNode; email?: string; backLabel?: string }) {
  return (
    <Stack align="center" ta="center" gap="md">
      <ThemeIcon size={64} radius="xl" variant="light" color="indigo">
        <IconMailCheck size={32} stroke={1.5} />
      </ThemeIcon>
      <Text size="sm" c="dimmed">
        {lines}
      </Text>
      {email && (
        <Text fw={600} data-testid="mail-sent-address">
          {email}
        </Text>
      )}
      <Button component={Link} to="/login" variant="light" fullWidth mt="sm">
        {backLabel}
      </Button>
    </Stack>
  );
}
