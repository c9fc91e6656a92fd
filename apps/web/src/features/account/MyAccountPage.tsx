import { Button, Card, Group, PasswordInput, SimpleGrid, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { IconLock, IconUser } from '@tabler/icons-react';
import { ChangePasswordForm, UpdateProfileBody } from '@gantry/contracts';
import { isApiError } from '../../api/errors';
import { useProfile } from '../../api/session';
import { toast } from '../../api/toast';
import { PageHeader } from '../../ui/PageHeader';
import { useZodForm } from '../../ui/use-zod-form';
import { useChangePassword, useUpdateProfile } from './api/account';

/** /account (spec §2.4): Profile and Password tabs, wired (the issue asks the buttons to work). */
export default function MyAccountPage() {
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
            <ProfileForm />
          </Tabs.Panel>
          <Tabs.Panel value="password">
            <PasswordForm />
          </Tabs.Panel>
        </Tabs>
      </Card>
    </Stack>
  );
}

function ProfileForm() {
  const profile = useProfile();
  const form = useZodForm(UpdateProfileBody, { firstName: profile?.firstName ?? '', lastName: profile?.lastName ?? '' });
  const update = useUpdateProfile();
  const submit = form.onSubmit((body) =>
    update.mutate(body, {
      onSuccess: () => toast.success('Your profile was updated'),
      onError: (e) => {
        if (isApiError(e) && e.fields) form.setServerErrors(e.fields);
        toast.apiError(e);
      },
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Name" autoComplete="given-name" {...form.field('firstName')} />
          <TextInput label="Surname" autoComplete="family-name" {...form.field('lastName')} />
        </SimpleGrid>
        <TextInput label="Email" value={profile?.email ?? ''} readOnly variant="filled" />
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending}>
            Update Profile
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PasswordForm() {
  const empty = { oldPassword: '', newPassword: '', repeatPassword: '' };
  const form = useZodForm(ChangePasswordForm, empty);
  const change = useChangePassword();
  const submit = form.onSubmit(({ oldPassword, newPassword }) =>
    change.mutate(
      { oldPassword, newPassword },
      {
        onSuccess: () => {
          form.reset(empty);
          toast.success('Your password was changed. Your other sessions have been signed out.');
        },
        onError: (e) => {
          if (isApiError(e) && e.fields) form.setServerErrors(e.fields);
          toast.apiError(e);
        },
      },
    ),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <PasswordInput label="Old password" autoComplete="current-password" {...form.field('oldPassword')} />
        <PasswordInput label="New password" autoComplete="new-password" {...form.field('newPassword')} />
        <PasswordInput label="Repeat new password" autoComplete="new-password" {...form.field('repeatPassword')} />
        <Text size="xs" c="dimmed">
          At least 8 characters with a lowercase letter, an uppercase letter and a number. Changing it signs you out everywhere else.
        </Text>
        <Group justify="flex-end">
          <Button type="submit" loading={change.isPending}>
            Update Password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
