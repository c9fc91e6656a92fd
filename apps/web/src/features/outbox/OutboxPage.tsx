import { Anchor, Alert, Badge, Box, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconMail } from '@tabler/icons-react';
import { Fragment } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/errors';
import { EmptyState } from '../../ui/EmptyState';
import { Logo } from '../../ui/Logo';
import { RelativeTime } from '../../ui/RelativeTime';
import { SkeletonCards } from '../../ui/SkeletonCards';
import { useOutbox } from './api/get-outbox';

const URL_RE = /(https?:\/\/[^\s<>"')]+)/g;

/** A mail's plain text with its links clickable. */
function Linkified({ text }: { text: string }) {
  const parts = text.split(URL_RE);
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <Anchor key={i} href={part} size="sm">
            {part}
          </Anchor>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </Text>
  );
}

/**
 * /outbox: the e-mails of an instance without SMTP (verification, recovery, invitations), newest first.
 * Open to instance admins, or to anyone with ?key= (printed in the server log).
 */
export default function OutboxPage() {
  useDocumentTitle('Outbox · Gantry');
  const [params] = useSearchParams();
  const key = params.get('key') ?? undefined;
  const outbox = useOutbox(key);

  return (
    <Box bg="gray.0" mih="100vh" py="xl">
      <Container size="md">
        <Group justify="space-between" mb="lg">
          <Group gap="sm">
            <Logo />
            <div>
              <Title order={2} fz={24}>
                Outbox
              </Title>
              <Text size="sm" c="dimmed">
                E-mails this instance sent while no SMTP server is configured.
              </Text>
            </div>
          </Group>
          {outbox.data && (
            <Badge variant="light">
              {outbox.data.length} {outbox.data.length === 1 ? 'mail' : 'mails'}
            </Badge>
          )}
        </Group>
        {outbox.isPending ? (
          <SkeletonCards count={3} max={1} />
        ) : outbox.isError ? (
          <Alert color="red" variant="light" title="The outbox cannot be read">
            {errorMessage(outbox.error)}
          </Alert>
        ) : outbox.data.length === 0 ? (
          <Card withBorder radius="md">
            <EmptyState title="No mails yet" description="Mails appear here as soon as Gantry sends one." icon={<IconMail size={28} />} />
          </Card>
        ) : (
          <Stack gap="md">
            {outbox.data.map((mail) => (
              <Card key={mail.id} withBorder radius="md" padding="lg" data-testid="outbox-mail">
                <Group justify="space-between" align="flex-start" mb="xs" wrap="nowrap">
                  <div>
                    <Text fw={600}>{mail.subject}</Text>
                    <Text size="sm" c="dimmed">
                      To: {mail.to}
                    </Text>
                  </div>
                  <RelativeTime date={mail.createdAt} size="xs" />
                </Group>
                <Linkified text={mail.text} />
              </Card>
            ))}
          </Stack>
        )}
      </Container>
    </Box>
  );
}
