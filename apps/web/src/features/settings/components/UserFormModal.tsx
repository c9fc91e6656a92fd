import { Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { InviteUserBody, PERMISSIONS, canAssign, type Permission, type ProjectUser } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { isApiError } from '../../../api/errors';
import { useZodForm } from '../../../ui/use-zod-form';
import { useInviteUser } from '../api/invite-user';
import { useUpdateUserPermission } from '../api/update-user-permission';

const permissionLabels: Record<Permission, string> = { owner: 'Owner', admin: 'Admin', write: 'Write', read: 'Read' };
export const PERMISSION_OPTIONS = PERMISSIONS.map((p) => ({ value: p, label: permissionLabels[p] }));

/** The permissions `actor` may give (only owners make owners, as the server's canAssign says); the others are shown disabled. */
export function permissionOptions(actor: Permission | undefined, from: Permission | undefined) {
  return PERMISSION_OPTIONS.map((o) => {
    const refused = !actor || !canAssign(actor, from, o.value);
    return refused ? { ...o, label: `${o.label} (only owners can give it)`, disabled: true } : o;
  });
}

/** Invite a user (e-mail + permission, default write) or change an existing user's permission (e-mail disabled); `actor` is the signed-in member's permission. */
export function UserFormModal({
  projectId,
  opened,
  onClose,
  user,
  actor,
}: {
  projectId: string;
  opened: boolean;
  onClose: () => void;
  user?: ProjectUser | null;
  actor: Permission | undefined;
}) {
  const editing = Boolean(user);
  const form = useZodForm(InviteUserBody, { email: '', permission: 'write' });
  const invite = useInviteUser(projectId);
  const update = useUpdateUserPermission(projectId);

  useEffect(() => {
    if (opened) form.reset({ email: user?.email ?? '', permission: user?.permission ?? 'write' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, user?.id]);

  const onError = (e: unknown) => {
    if (isApiError(e)) form.setServerErrors(e.fields);
    toast.apiError(e);
  };

  const submit = form.onSubmit(({ email, permission }) => {
    if (user) {
      update.mutate(
        { userId: user.userId, permission },
        {
          onSuccess: () => {
            toast.success('Successful updated user permissions');
            onClose();
          },
          onError,
        },
      );
    } else {
      invite.mutate(
        { email, permission },
        {
          onSuccess: () => {
            toast.success('Successfully added user');
            onClose();
          },
          onError,
        },
      );
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} centered radius="md" title={<Text fw={600}>{editing ? 'Edit User' : 'Add New User'}</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label="Email" type="email" placeholder="teammate@company.com" disabled={editing} data-autofocus {...form.field('email')} />
          <NativeSelect label="Permission" data={permissionOptions(actor, user?.permission)} {...form.field('permission')} />
          <Text size="xs" c="dimmed">
            Owner can do everything; Admin can also manage users; Write can create and deploy; Read can only view.
          </Text>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={invite.isPending || update.isPending}>
              {editing ? 'Save' : 'Invite'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
