import { Button, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { AuthLayout } from '../components/AuthLayout';
import { activate } from '../api/activate';

type State = 'verifying' | 'verified' | 'failed';

/** /account/verify/{email}/{code} (spec §2.4). */
export default function VerifyEmailPage() {
  const { email = '', code = '' } = useParams();
  const [state, setState] = useState<State>('verifying');
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    activate({ username: email, code }).then(
      () => setState('verified'),
      () => setState('failed'),
    );
  }, [email, code]);

  return (
    <AuthLayout title="E-mail verification" welcomeStep={state === 'verified' ? 3 : 2} welcomeEmail={email}>
      <Stack align="center" ta="center" gap="md" py="md">
        {state === 'verifying' && (
          <>
            <Loader />
            <Text>Verifying email...</Text>
          </>
        )}
        {state === 'verified' && (
          <>
            <ThemeIcon size={64} radius="xl" variant="light" color="teal">
              <IconCircleCheck size={34} stroke={1.5} />
            </ThemeIcon>
            <Title order={4}>Your email has been verified!</Title>
            <Button component={Link} to="/login" fullWidth mt="sm">
              Go to Login
            </Button>
          </>
        )}
        {state === 'failed' && (
          <>
            <ThemeIcon size={64} radius="xl" variant="light" color="red">
              <IconCircleX size={34} stroke={1.5} />
            </ThemeIcon>
            <Title order={4}>We were not able to verify your email!</Title>
            <Text size="sm" c="dimmed">
              The link may have expired or was already used.
            </Text>
            <Button component={Link} to="/login" variant="light" fullWidth mt="sm">
              Back to Login
            </Button>
          </>
        )}
      </Stack>
    </AuthLayout>
  );
}
