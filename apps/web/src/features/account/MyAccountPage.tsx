import { Button, Card, Group, PasswordInput, SimpleGrid, Stack, Tabs, TextInput } from '@mantine/core';
import { IconLock, IconUser } from '@tabler/icons-react';
import { useProfile } from '../../api/session';
import { PageHeader } from '../../ui/PageHeader';

/** /account (spec §2.4): Profile and Password tabs. Static: no behaviour is wired yet. */
export default function MyAccountPage() {
  const profile = useProfile();
  return (
    <Stack maw={760}>
      <PageHeader title="My Account" description="Your profile and password." />
      <Card withBorder radius="md" padding="lg">
        <Tabs defaultValue="profile">
          <Tabs.List mb="lg">
            <Tabs.Tab value="profile" leftSection={<IconUser size={16} />}>
              Profile
            </Tabs.Tab>
            <Tabs.Tab value="password" leftSection={<IconLock size={16} />}>
              Password
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="profile">
            <Stack gap="md">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="Name" defaultValue={profile?.firstName ?? ''} />
                <TextInput label="Surname" defaultValue={profile?.lastName ?? ''} />
              </SimpleGrid>
              <TextInput label="Email" defaultValue={profile?.email ?? ''} readOnly variant="filled" />
              <Group justify="flex-end">
                <Button type="button">Update Profile</Button>
              </Group>
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="password">
            <Stack gap="md">
              <PasswordInput label="Old password" autoComplete="current-password" />
              <PasswordInput label="New password" autoComplete="new-password" />
              <PasswordInput label="Repeat new password" autoComplete="new-password" />
              <Group justify="flex-end">
                <Button type="button">Update Password</Button>
              </Group>
            </Stack>
          </Tabs.Panel>
        </Tabs>
      </Card>
    </Stack>
  );
}
