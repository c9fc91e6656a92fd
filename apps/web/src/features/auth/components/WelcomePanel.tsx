import { Anchor, Badge, Box, Button, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBoxMultiple, IconCircleCheck, IconCloudDollar, IconGitBranch, IconMailForward, IconSteeringWheel } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Logo } from '../../../ui/Logo';
import { EXTERNAL_LINKS } from '../../../ui/links';

export type WelcomeStep = 1 | 2 | 3;

const features = [
  { icon: IconBoxMultiple, title: 'Infrastructure Builder', text: 'Compose components into environments and deploy them with one click.' },
  { icon: IconGitBranch, title: 'Pipeline Manager', text: 'Git-connected YAML pipelines with live logs and artifacts.' },
  { icon: IconSteeringWheel, title: 'Kubernetes Dashboard', text: 'Clusters, services and registries in one place.' },
  { icon: IconCloudDollar, title: 'Cloud Cost Optimization', text: 'Sleep schedules for non-production environments.' },
];

/**
 * The welcome screen (spec §2.4) with its three states:
 * 1 welcome (the features), 2 verify e-mail, 3 e-mail confirmed (Get Started → /login).
 */
export function WelcomePanel({ step, email }: { step: WelcomeStep; email?: string }) {
  return (
    <Stack h="100%" justify="space-between" gap="xl" data-testid={`welcome-step-${step}`}>
      <Logo withText inverted />
      <Box>
        {step === 1 && (
          <Stack gap="lg">
            <Title order={1} c="white" fz={34} lh={1.2}>
              Welcome to Gantry
            </Title>
            <Text c="indigo.1" size="md" maw={440}>
              Your self-hosted cloud delivery portal: from infrastructure to running services, for the whole team.
            </Text>
            <List spacing="md" center mt="sm">
              {features.map((f) => (
                <List.Item
                  key={f.title}
                  icon={
                    <ThemeIcon size={36} radius="md" color="white" variant="white">
                      <f.icon size={20} color="var(--mantine-color-indigo-7)" />
                    </ThemeIcon>
                  }
                >
                  <Text c="white" fw={600} size="sm">
                    {f.title}
                  </Text>
                  <Text c="indigo.1" size="xs">
                    {f.text}
                  </Text>
                </List.Item>
              ))}
            </List>
          </Stack>
        )}
        {step === 2 && (
          <Stack gap="md">
            <ThemeIcon size={56} radius="xl" color="white" variant="white">
              <IconMailForward size={28} color="var(--mantine-color-indigo-7)" />
            </ThemeIcon>
            <Title order={2} c="white">
              Verify your e-mail
            </Title>
            <Text c="indigo.1" maw={420}>
              Open the link we sent{email ? ` to ${email}` : ''} to activate your account, then sign in.
            </Text>
          </Stack>
        )}
        {step === 3 && (
          <Stack gap="md">
            <ThemeIcon size={56} radius="xl" color="white" variant="white">
              <IconCircleCheck size={28} color="var(--mantine-color-teal-7)" />
            </ThemeIcon>
            <Title order={2} c="white">
              E-mail confirmed
            </Title>
            <Text c="indigo.1" maw={420}>
              Your account is ready. Sign in and create your first project.
            </Text>
            <Button component={Link} to="/login" variant="white" w="fit-content">
              Get Started
            </Button>
          </Stack>
        )}
      </Box>
      <Group gap="xs">
        <Badge color="white" variant="outline" c="white">
          Beta
        </Badge>
        <Text size="sm" c="indigo.1">
          A newer version of the portal is in beta.{' '}
          <Anchor href={EXTERNAL_LINKS.beta} target="_blank" rel="noreferrer" c="white" fw={600} size="sm">
            Try the beta
          </Anchor>
        </Text>
      </Group>
    </Stack>
  );
}
