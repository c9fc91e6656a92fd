import { ActionIcon, Badge, Button, Card, Group, Loader, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconPlugConnected, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { matchesSearch, type GitAccount } from '@gantry/contracts';
import { errorMessage } from '../../api/errors';
import { useCurrentProject } from '../../api/session';
import { toast } from '../../api/toast';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { DataTable, type Column } from '../../ui/DataTable';
import { Permitted } from '../../ui/Permitted';
import { SearchInput } from '../../ui/SearchInput';
import { PlanGate } from '../../ui/UpgradePrompt';
import { useDeleteGitAccount } from './api/delete-git-account';
import { useGitAccounts } from './api/list-git-accounts';
import { ConnectAccountModal } from './components/ConnectAccountModal';
import { providerOf } from './components/providers';
import { useCompleteGitConnection } from './use-complete-connection';

export const NO_GIT_ACCOUNTS = 'No Git accounts available.';

/**
 * Settings → Git Accounts (spec §2.9, delivery §2 "Git accounts"): search, Connect Account,
 * the project's accounts with Remove; finishes a connection when the provider sends the user back.
 */
export default function GitAccountsTab({ projectId: given }: { projectId?: string }) {
  const current = useCurrentProject();
  const projectId = given ?? current?.id ?? '';
  const accounts = useGitAccounts(projectId);
  const remove = useDeleteGitAccount(projectId);
  const { connecting } = useCompleteGitConnection(projectId || undefined);
  const [search, setSearch] = useState('');
  const [modalOpen, setModalOpen] = useState(false);
  const [removing, setRemoving] = useState<GitAccount | null>(null);

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.gitAccountId, {
      onSuccess: () => {
        toast.success(`Git account ${removing.accountName} has been removed`);
        setRemoving(null);
      },
      onError: (e) => {
        toast.apiError(e);
        setRemoving(null);
      },
    });
  };

  const columns: Column<GitAccount>[] = [
    {
      key: 'account',
      header: 'Account',
      render: (a) => {
        const p = providerOf(a.type);
        return (
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon size={32} radius="md" variant="light" color={p?.color ?? 'gray'}>
              {p?.icon(18)}
            </ThemeIcon>
            <Text size="sm" fw={500}>
              {a.accountName}
            </Text>
          </Group>
        );
      },
    },
    {
      key: 'type',
      header: 'Type',
      render: (a) => (
        <Badge variant="light" color={providerOf(a.type)?.color ?? 'gray'} radius="sm">
          {providerOf(a.type)?.label ?? a.type}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      width: 110,
      render: (a) => (
        <Permitted action="change">
          {(disabled) => (
            <Tooltip label="Remove" withArrow disabled={disabled}>
              <ActionIcon variant="subtle" color="red" aria-label={`Remove ${a.accountName}`} onClick={() => setRemoving(a)} disabled={disabled}>
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Permitted>
      ),
    },
  ];

  const visible = (accounts.data ?? []).filter((a) => matchesSearch(search, a.accountName, a.type, providerOf(a.type)?.label));

  return (
    <PlanGate errors={[accounts.error]}>
      <Card withBorder radius="md" padding={0} data-testid="git-accounts">
        <Group justify="space-between" p="md">
          <SearchInput value={search} onChange={setSearch} placeholder="Search accounts..." label="Search accounts" />
          <Group gap="sm">
            {connecting && (
              <Group gap={6}>
                <Loader size="xs" />
                <Text size="sm" c="dimmed">
                  Connecting…
                </Text>
              </Group>
            )}
            <Permitted action="change">
              {(disabled) => (
                <Button leftSection={<IconPlugConnected size={16} />} onClick={() => setModalOpen(true)} disabled={disabled}>
                  Connect Account
                </Button>
              )}
            </Permitted>
          </Group>
        </Group>
        {accounts.isError ? (
          <Text c="red" size="sm" p="md">
            {errorMessage(accounts.error)}
          </Text>
        ) : (
          <DataTable
            columns={columns}
            rows={visible}
            rowKey={(a) => a.gitAccountId}
            loading={accounts.isPending && Boolean(projectId)}
            emptyText={NO_GIT_ACCOUNTS}
            data-testid="git-accounts-table"
          />
        )}
      </Card>
      <ConnectAccountModal projectId={projectId} opened={modalOpen} onClose={() => setModalOpen(false)} />
      <ConfirmModal
        opened={Boolean(removing)}
        title="Remove Git account"
        message={
          removing
            ? `Are you sure you want to remove the ${providerOf(removing.type)?.label ?? removing.type} account ${removing.accountName}? This action cannot be undone. An account a pipeline builds from is kept until that pipeline is removed.`
            : ''
        }
        confirmLabel="Remove"
        danger
        loading={remove.isPending}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      />
    </PlanGate>
  );
}
