import { ActionIcon, Button, Card, Code, Group, Menu, Stack, Text, ThemeIcon, Title, Tooltip } from '@mantine/core';
import { IconChevronDown, IconCloudPlus, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { cloudAccountMessages, matchesSearch, type AwsAccount, type AzureAccount, type CloudAccountProvider, type GcpAccount } from '@gantry/contracts';
import { errorMessage } from '../../api/errors';
import { toast } from '../../api/toast';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { DataTable, type Column } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { Permitted } from '../../ui/Permitted';
import { SearchInput } from '../../ui/SearchInput';
import { useDeleteCloudAccount, type CloudAccountTarget } from './api/delete-cloud-account';
import { useAwsAccounts } from './api/list-aws-accounts';
import { useAzureAccounts } from './api/list-azure-accounts';
import { useGcpAccounts } from './api/list-gcp-accounts';
import { CloudAccountModal, type EditedCloudAccount } from './components/CloudAccountModal';
import { CLOUD_PROVIDERS, cloudProviderOf } from './components/providers';

export const NO_CLOUD_ACCOUNTS = cloudAccountMessages.empty;

type Removing = { target: CloudAccountTarget; name: string };

const nameCell = (provider: CloudAccountProvider, name: string, sub?: string) => {
  const p = cloudProviderOf(provider);
  return (
    <Group gap="sm" wrap="nowrap">
      <ThemeIcon size={32} radius="md" variant="light" color={p.color}>
        {p.icon(18)}
      </ThemeIcon>
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={500} truncate>
          {name}
        </Text>
        {sub && (
          <Text size="xs" c="dimmed" truncate>
            {sub}
          </Text>
        )}
      </div>
    </Group>
  );
};
const mono = (v: string) => (
  <Code fz="xs" style={{ wordBreak: 'break-all' }}>
    {v}
  </Code>
);

function Actions({ label, onEdit, onRemove }: { label: string; onEdit: () => void; onRemove: () => void }) {
  const actions = [
    { name: 'Edit', color: 'gray', icon: <IconPencil size={16} />, onClick: onEdit },
    { name: 'Remove', color: 'red', icon: <IconTrash size={16} />, onClick: onRemove },
  ];
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {actions.map((a) => (
        <Permitted key={a.name} action="change">
          {(disabled) => (
            <Tooltip label={a.name} withArrow disabled={disabled}>
              <ActionIcon variant="subtle" color={a.color} aria-label={`${a.name} ${label}`} onClick={a.onClick} disabled={disabled}>
                {a.icon}
              </ActionIcon>
            </Tooltip>
          )}
        </Permitted>
      ))}
    </Group>
  );
}

function Section({ provider, count, children }: { provider: CloudAccountProvider; count?: number; children: ReactNode }) {
  const p = cloudProviderOf(provider);
  return (
    <div data-testid={`cloud-accounts-${provider}`}>
      <Group gap="xs" px="md" pt="md" pb={4}>
        <Title order={5} fw={600}>
          {p.section}
        </Title>
        {count !== undefined && (
          <Text size="xs" c="dimmed">
            ({count})
          </Text>
        )}
      </Group>
      {children}
    </div>
  );
}

/**
 * Settings → Cloud Accounts (spec §2.9): search, 'Connect Cloud Account' (AWS, Google Cloud Platform,
 * Microsoft Azure), one section per provider with Edit and Remove. Secrets are never shown: the server
 * answers '(sensitive)'.
 */
export default function CloudAccountsTab({ projectId }: { projectId: string }) {
  const aws = useAwsAccounts(projectId);
  const gcp = useGcpAccounts(projectId);
  const azure = useAzureAccounts(projectId);
  const remove = useDeleteCloudAccount(projectId);
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<{ provider: CloudAccountProvider; edited: EditedCloudAccount | null } | null>(null);
  const [removing, setRemoving] = useState<Removing | null>(null);

  const openNew = (provider: CloudAccountProvider) => setDialog({ provider, edited: null });
  const openEdit = (edited: EditedCloudAccount) => setDialog({ provider: edited.provider, edited });

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.target, {
      onSuccess: () => {
        toast.success(`Cloud account ${removing.name} has been removed`);
        setRemoving(null);
      },
      onError: (e) => {
        toast.apiError(e);
        setRemoving(null);
      },
    });
  };

  /** Each provider table's last column: Edit and Remove of the account its row shows. */
  const actionsColumn = <T,>(of: (account: T) => { label: string; edited: EditedCloudAccount; removing: Removing }): Column<T> => ({
    key: 'actions',
    header: 'Actions',
    align: 'right',
    width: 110,
    render: (account) => {
      const { label, edited, removing } = of(account);
      return <Actions label={label} onEdit={() => openEdit(edited)} onRemove={() => setRemoving(removing)} />;
    },
  });

  const awsColumns: Column<AwsAccount>[] = [
    { key: 'name', header: 'Account', render: (a) => nameCell('aws', a.accountName, a.id) },
    { key: 'role', header: 'IAM role', render: (a) => mono(a.iamRole) },
    actionsColumn((a) => ({
      label: a.accountName,
      edited: { provider: 'aws', account: a },
      removing: { target: { provider: 'aws', awsAccountId: a.id }, name: `${a.accountName} (${a.id})` },
    })),
  ];
  const gcpColumns: Column<GcpAccount>[] = [
    { key: 'name', header: 'Project', render: (a) => nameCell('gcp', a.projectName, a.gcpProjectId) },
    { key: 'sa', header: 'Service account', render: (a) => mono(a.targetServiceAccount) },
    actionsColumn((a) => ({
      label: a.projectName,
      edited: { provider: 'gcp', account: a },
      removing: { target: { provider: 'gcp', gcpProjectId: a.gcpProjectId }, name: `${a.projectName} (${a.gcpProjectId})` },
    })),
  ];
  const azureColumns: Column<AzureAccount>[] = [
    { key: 'name', header: 'Subscription', render: (a) => nameCell('azure', a.subscriptionName, a.subscriptionId) },
    { key: 'tenant', header: 'Tenant ID', render: (a) => mono(a.tenantId) },
    { key: 'app', header: 'Application ID', render: (a) => mono(a.applicationId) },
    actionsColumn((a) => ({
      label: a.subscriptionName,
      edited: { provider: 'azure', account: a },
      removing: {
        target: { provider: 'azure', tenantId: a.tenantId, subscriptionId: a.subscriptionId },
        name: `${a.subscriptionName} (${a.subscriptionId})`,
      },
    })),
  ];

  const awsRows = (aws.data ?? []).filter((a) => matchesSearch(search, a.accountName, a.id, a.iamRole));
  const gcpRows = (gcp.data ?? []).filter((a) => matchesSearch(search, a.projectName, a.gcpProjectId, a.targetServiceAccount));
  const azureRows = (azure.data ?? []).filter((a) => matchesSearch(search, a.subscriptionName, a.subscriptionId, a.tenantId, a.applicationId));
  const loaded = aws.isSuccess && gcp.isSuccess && azure.isSuccess;
  const none = loaded && aws.data.length + gcp.data.length + azure.data.length === 0;
  const failed = [aws, gcp, azure].find((q) => q.isError);

  const connectMenu = (
    <Permitted action="change">
      {(disabled) => (
        <Menu position="bottom-end" shadow="md" width={260} disabled={disabled}>
          <Menu.Target>
            <Button leftSection={<IconCloudPlus size={16} />} rightSection={<IconChevronDown size={14} />} disabled={disabled}>
              Connect Cloud Account
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {CLOUD_PROVIDERS.map((p) => (
              <Menu.Item
                key={p.provider}
                onClick={() => openNew(p.provider)}
                leftSection={
                  <ThemeIcon size={28} radius="md" variant="light" color={p.color}>
                    {p.icon(16)}
                  </ThemeIcon>
                }
              >
                <Text size="sm" fw={500}>
                  {p.label}
                </Text>
                <Text size="xs" c="dimmed">
                  {p.description}
                </Text>
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
    </Permitted>
  );

  const table = <T,>(rows: T[], columns: Column<T>[], key: (r: T) => string, loading: boolean, provider: CloudAccountProvider) => (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={key}
      loading={loading && Boolean(projectId)}
      emptyText={NO_CLOUD_ACCOUNTS}
      data-testid={`cloud-accounts-table-${provider}`}
    />
  );

  return (
    <>
      <Card withBorder radius="md" padding={0} data-testid="cloud-accounts">
        <Group justify="space-between" p="md">
          <SearchInput value={search} onChange={setSearch} placeholder="Search accounts..." label="Search accounts" />
          {connectMenu}
        </Group>
        {failed ? (
          <Text c="red" size="sm" p="md">
            {errorMessage(failed.error)}
          </Text>
        ) : none ? (
          <EmptyState
            title={NO_CLOUD_ACCOUNTS}
            description="Connect an AWS account, a Google Cloud project or a Microsoft Azure subscription to deploy your environments to it."
          />
        ) : (
          <Stack gap="xs" pb="sm">
            <Section provider="aws" count={aws.data?.length}>
              {table(awsRows, awsColumns, (a) => a.id, aws.isPending, 'aws')}
            </Section>
            <Section provider="gcp" count={gcp.data?.length}>
              {table(gcpRows, gcpColumns, (a) => a.gcpProjectId, gcp.isPending, 'gcp')}
            </Section>
            <Section provider="azure" count={azure.data?.length}>
              {table(azureRows, azureColumns, (a) => `${a.tenantId}/${a.subscriptionId}`, azure.isPending, 'azure')}
            </Section>
          </Stack>
        )}
      </Card>
      {dialog && (
        <CloudAccountModal
          key={dialog.provider}
          projectId={projectId}
          provider={dialog.provider}
          edited={dialog.edited}
          opened
          onClose={() => setDialog(null)}
        />
      )}
      <ConfirmModal
        opened={Boolean(removing)}
        title="Remove cloud account"
        message={
          removing
            ? `Are you sure you want to remove the account ${removing.name}? Gantry will no longer be able to deploy to it. This action cannot be undone.`
            : ''
        }
        confirmLabel="Remove"
        danger
        loading={remove.isPending}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}
