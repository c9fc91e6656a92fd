import { Button, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link } from 'react-router';

/** /page-not-found (spec §2.4). */
export default function NotFoundPage() {
  useDocumentTitle('Page not found · Gantry');
  return (
    <Stack align="center" justify="center" mih="70vh" gap="md" ta="center">
      <Text fz={96} fw={800} c="indigo.1" lh={1}>
        404
      </Text>
      <Title order={2}>Oops, page not found!</Title>
      <Text c="dimmed" maw={420}>
        The page you are looking for does not exist or has moved.
      </Text>
      <Button component={Link} to="/projects" mt="sm">
        Back to Dashboard
      </Button>
    </Stack>
  );
}
