import { Anchor, Box, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Logo } from '../../../ui/Logo';
import { EXTERNAL_LINKS } from '../../../ui/links';
import { WelcomePanel, type WelcomeStep } from './WelcomePanel';
import classes from './AuthLayout.module.css';

export interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Which welcome state the side panel shows (1 welcome, 2 verify e-mail, 3 e-mail confirmed). */
  welcomeStep?: WelcomeStep;
  welcomeEmail?: string;
  width?: number;
}

/** The signed-out frame: the welcome panel on the left, the form card on the right, legal links below. */
export function AuthLayout({ title, subtitle, children, welcomeStep = 1, welcomeEmail, width = 440 }: AuthLayoutProps) {
  useDocumentTitle(`${title} · Gantry`);
  return (
    <div className={classes.root}>
      <aside className={classes.aside}>
        <WelcomePanel step={welcomeStep} email={welcomeEmail} />
      </aside>
      <main className={classes.main}>
        <Box className={classes.mobileLogo}>
          <Logo withText />
        </Box>
        <Card withBorder radius="lg" padding="xl" w="100%" maw={width} shadow="sm">
          <Stack gap={4} mb="lg">
            <Title order={2} fz={24} fw={700}>
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" size="sm">
                {subtitle}
              </Text>
            )}
          </Stack>
          {children}
        </Card>
        <Group gap="lg" mt="xl" justify="center">
          <Anchor href={EXTERNAL_LINKS.privacy} target="_blank" rel="noreferrer" size="xs" c="dimmed">
            Privacy Policy
          </Anchor>
          <Anchor href={EXTERNAL_LINKS.terms} target="_blank" rel="noreferrer" size="xs" c="dimmed">
            Terms of Service
          </Anchor>
          <Anchor href={EXTERNAL_LINKS.cookies} target="_blank" rel="noreferrer" size="xs" c="dimmed">
            Cookie Policy
          </Anchor>
        </Group>
      </main>
    </div>
  );
}
