import { Badge, Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHourglassHigh } from '@tabler/icons-react';

export const COMING_SOON_TEXT = 'This area is coming in a later release';

/** The notice of an area not built yet. */
export function ComingSoonCard({ text = COMING_SOON_TEXT }: { text?: string }) {
  return (
    <Card withBorder radius="md" padding="xl" data-testid="coming-soon">
      <Stack align="center" gap="sm" py="xl">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconHourglassHigh size={28} stroke={1.5} />
        </ThemeIcon>
        <Badge variant="light">Coming soon</Badge>
        <Title order={4}>{text}</Title>
        <Text c="dimmed" size="sm" ta="center" maw={460}>
          The screens of this area are being built. Everything else in your project keeps working in the meantime.
        </Text>
      </Stack>
    </Card>
  );
}
