import { ActionIcon, Avatar, Badge, Button, Card, Group, Text, Tooltip } from '@mantine/core';
import { IconMailForward, IconPencil, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { canAssign, isPending, matchesSearch, type ProjectUser } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { DataTable, type Column } from '../../../ui/DataTable';
import { PlanGate } from '../../../ui/UpgradePrompt';
import { SearchInput } from '../../../ui/SearchInput';
import { errorMessage } from '../../../api/errors';
import { useProjectUsers } from '../api/get-project-users';
import { useRemoveUser } from '../api/remove-user';
import { useResendInvitation } from '../api/resend-invitation';
import { UserFormModal } from './UserFormModal';
import { useProjectPermission } from '../../../api/permissions';
import { Permitted } from '../../../ui/Permitted';

export const ALREADY_ACCEPTED = 'The user has already accepted the invitation';
/** Why an admin may not edit or remove an owner's row (the server's rule, canAssign). */
export const OWNERS_ONLY = 'Only the project’s owners can change or remove an owner.';

const fullName = (u: ProjectUser) => `${u.firstName} ${u.lastName}`.trim();

/** Access management (spec §2.9): search, Add New User, the project's users with Edit, Resend and Remove. */
export function AccessManagementTab({ projectId }: { projectId: string }) {
  const users = useProjectUsers(projectId);
  const remove = useRemoveUser(projectId);
  const resend = useResendInvitation(projectId);
  const [search, setSearch] = useState('');
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<ProjectUser | null>(null);
  const [removing, setRemoving] = useState<ProjectUser | null>(null);
  const { permission, can } = useProjectPermission();
  // An admin manages users but not owners: an owner's row offers them no edit or removal (the server refuses both).
  const ownersOnly = (u: ProjectUser) => (permission && !canAssign(permission, u.permission, undefined) ? OWNERS_ONLY : null);

  const onResend = (u: ProjectUser) => {
    if (!isPending(u.status)) {
      toast.warning(ALREADY_ACCEPTED);
      return;
    }
    resend.mutate(u.email, {
      onSuccess: () => toast.success(`Email invitation sent to ${u.email}`),
      onError: (e) => toast.apiError(e),
    });
  };

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.userId, {
      onSuccess: () => {
        toast.success('Successful removed user from project');
        setRemoving(null);
      },
      onError: (e) => {
        toast.apiError(e);
        setRemoving(null);
      },
    });
  };

  const columns: Column<ProjectUser>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (u) => (
        <Group gap="sm" wrap="nowrap">
          <Avatar size={32} radius="xl" color="indigo">
            {(u.firstName[0] ?? u.email[0] ?? '?').toUpperCase()}
            {(u.lastName[0] ?? '').toUpperCase()}
          </Avatar>
          <Text size="sm" fw={500}>
            {fullName(u) || '—'}
          </Text>
          {isPending(u.status) && (
            // its whole word at a phone's width, where the row is squeezed ('P…')
            <Badge color="yellow" variant="light" size="sm" radius="sm" style={{ flexShrink: 0 }}>
              PENDING
            </Badge>
          )}
        </Group>
      ),
    },
    { key: 'email', header: 'Email', render: (u) => <Text size="sm">{u.email}</Text> },
    {
      key: 'permission',
      header: 'Permission',
      render: (u) => (
        <Badge variant="outline" color={u.permission === 'owner' ? 'indigo' : 'gray'} radius="sm" tt="capitalize">
          {u.permission}
        </Badge>
      ),
    },
  ];
  const actionsColumn: Column<ProjectUser>[] = [
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      width: 140,
      render: (u) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label={ownersOnly(u) ?? 'Edit'} withArrow multiline maw={260}>
            <span style={{ display: 'inline-flex' }} data-refused={ownersOnly(u) ? 'owner' : undefined}>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label="Edit"
                disabled={Boolean(ownersOnly(u))}
                onClick={() => {
                  setEditing(u);
                  setFormOpen(true);
                }}
              >
                <IconPencil size={16} />
              </ActionIcon>
            </span>
          </Tooltip>
          <Tooltip label="Resend" withArrow>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label="Resend"
              onClick={() => onResend(u)}
              loading={resend.isPending && resend.variables === u.email}
            >
              <IconMailForward size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={ownersOnly(u) ?? 'Remove'} withArrow multiline maw={260}>
            <span style={{ display: 'inline-flex' }} data-refused={ownersOnly(u) ? 'owner' : undefined}>
              <ActionIcon variant="subtle" color="red" aria-label="Remove" disabled={Boolean(ownersOnly(u))} onClick={() => setRemoving(u)}>
                <IconTrash size={16} />
              </ActionIcon>
            </span>
          </Tooltip>
        </Group>
      ),
    },
  ];

  const mayManage = can('manageUsers');
  if (mayManage) columns.push(...actionsColumn);

  const visible = (users.data ?? []).filter((u) => matchesSearch(search, fullName(u), u.email));

  return (
    <PlanGate errors={[users.error]}>
      <Card withBorder radius="md" padding={0}>
        <Group justify="space-between" p="md">
          <SearchInput value={search} onChange={setSearch} placeholder="Search users..." label="Search users" />
          <Permitted action="manageUsers">
            {(refused) => (
              <Button
                leftSection={<IconUserPlus size={16} />}
                disabled={refused}
                onClick={() => {
                  setEditing(null);
                  setFormOpen(true);
                }}
              >
                Add New User
              </Button>
            )}
          </Permitted>
        </Group>
        {users.isError ? (
          <Text c="red" size="sm" p="md">
            {errorMessage(users.error)}
          </Text>
        ) : (
          <DataTable
            columns={columns}
            rows={visible}
            rowKey={(u) => u.userId}
            loading={users.isPending}
            emptyText="No users available"
            data-testid="users-table"
          />
        )}
      </Card>
      <UserFormModal projectId={projectId} opened={formOpen} onClose={() => setFormOpen(false)} user={editing} actor={permission} />
      <ConfirmModal
        opened={Boolean(removing)}
        title="Remove user"
        message={removing ? `Are you sure you want to remove ${removing.email} from the project?` : ''}
        confirmLabel="Remove"
        danger
        loading={remove.isPending}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      />
    </PlanGate>
  );
}
