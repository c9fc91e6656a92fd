import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { useEffect, useRef, type FocusEvent } from 'react';
import {
  SENSITIVE_PLACEHOLDER,
  cloudAccountForms,
  cloudAccountMessages,
  toUpdateAwsBody,
  toUpdateAzureBody,
  toUpdateGcpBody,
  type AwsAccount,
  type AwsAccountBody,
  type AzureAccount,
  type AzureAccountBody,
  type CloudAccountProvider,
  type GcpAccount,
  type GcpAccountBody,
} from '@gantry/contracts';
import { isApiError } from '../../../api/errors';
import { toast } from '../../../api/toast';
import { useZodForm } from '../../../ui/use-zod-form';
import { useSaveAwsAccount } from '../api/save-aws-account';
import { useSaveAzureAccount } from '../api/save-azure-account';
import { useSaveGcpAccount } from '../api/save-gcp-account';
import { cloudProviderOf } from './providers';

/** The account being edited, tagged with its provider; null when connecting a new one. */
export type EditedCloudAccount =
  { provider: 'aws'; account: AwsAccount } | { provider: 'gcp'; account: GcpAccount } | { provider: 'azure'; account: AzureAccount };

interface FieldDef {
  name: string;
  label: string;
  placeholder: string;
  description?: string;
  /** Shown as the '(sensitive)' placeholder on edit; left there, the stored value is kept. */
  secret?: boolean;
  /** Cannot change once connected (it names the account). */
  lockedOnEdit?: boolean;
  password?: boolean;
}

const FIELDS: Record<CloudAccountProvider, FieldDef[]> = {
  aws: [
    { name: 'accountName', label: 'Account name', placeholder: 'Production' },
    {
      name: 'iamRole',
      label: 'IAM role ARN',
      placeholder: 'arn:aws:iam::<ACCOUNT ID>:role/<ROLE NAME>',
      description: "A role whose trust policy allows Gantry's identity to assume it with the external ID",
    },
    { name: 'externalId', label: 'External ID', placeholder: "The external ID of the role's trust policy", secret: true },
  ],
  gcp: [
    { name: 'gcpProjectId', label: 'Project ID', placeholder: 'my-project-123', lockedOnEdit: true },
    { name: 'projectName', label: 'Project name', placeholder: 'My project' },
    {
      name: 'targetServiceAccount',
      label: 'Service account',
      placeholder: 'deployer@my-project-123.iam.gserviceaccount.com',
      description: "Grant Gantry's identity the Service Account Token Creator role on it",
    },
  ],
  azure: [
    { name: 'tenantId', label: 'Tenant ID', placeholder: '00000000-0000-0000-0000-000000000000', lockedOnEdit: true },
    { name: 'subscriptionId', label: 'Subscription ID', placeholder: '00000000-0000-0000-0000-000000000000', lockedOnEdit: true },
    { name: 'subscriptionName', label: 'Subscription name', placeholder: 'Pay-As-You-Go' },
    { name: 'applicationId', label: 'Application ID', placeholder: "The app registration's client ID" },
    { name: 'clientSecret', label: 'Client secret', placeholder: "The app registration's client secret value", secret: true, password: true },
  ],
};

function initialValues(provider: CloudAccountProvider, edited: EditedCloudAccount | null): Record<string, string> {
  const values = Object.fromEntries(FIELDS[provider].map((f) => [f.name, ''])) as Record<string, string>;
  if (!edited || edited.provider !== provider) return values;
  for (const f of FIELDS[provider]) {
    const v = (edited.account as Record<string, string>)[f.name];
    values[f.name] = f.secret ? SENSITIVE_PLACEHOLDER : (v ?? '');
  }
  return values;
}

/**
 * 'Connect or Update {provider} Account' (spec §2.9, §5): validates on submit with the contracts' schemas,
 * is busy while the server proves the connection, then toasts and closes. On edit the secret starts at
 * '(sensitive)' (left there, the stored one is kept) and the identifying ids are locked.
 */
export function CloudAccountModal({
  projectId,
  provider,
  edited,
  opened,
  onClose,
}: {
  projectId: string;
  provider: CloudAccountProvider;
  edited: EditedCloudAccount | null;
  opened: boolean;
  onClose: () => void;
}) {
  const form = useZodForm(cloudAccountForms[provider], initialValues(provider, edited));
  const aws = useSaveAwsAccount(projectId);
  const gcp = useSaveGcpAccount(projectId);
  const azure = useSaveAzureAccount(projectId);
  const busy = aws.isPending || gcp.isPending || azure.isPending;
  const editing = Boolean(edited);
  const meta = cloudProviderOf(provider);

  useEffect(() => {
    if (opened) form.reset(initialValues(provider, edited));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, provider, edited]);

  // the last refusal's toast: it no longer holds once the corrected account connects (or is refused again)
  const refusal = useRef<string | undefined>(undefined);
  const dismissRefusal = () => refusal.current && toast.dismiss(refusal.current);
  const handlers = {
    onSuccess: () => {
      dismissRefusal();
      toast.success(cloudAccountMessages.connected(provider));
      onClose();
    },
    onError: (e: unknown) => {
      if (isApiError(e)) form.setServerErrors(e.fields);
      dismissRefusal();
      refusal.current = toast.apiError(e, cloudAccountMessages.connectionFailed(provider));
    },
  };

  const submit = form.onSubmit((data) => {
    if (provider === 'aws') {
      const body = data as AwsAccountBody;
      aws.mutate(edited?.provider === 'aws' ? { awsAccountId: edited.account.id, body: toUpdateAwsBody(body) } : { body }, handlers);
    } else if (provider === 'gcp') {
      const body = data as GcpAccountBody;
      gcp.mutate(edited?.provider === 'gcp' ? { gcpProjectId: edited.account.gcpProjectId, body: toUpdateGcpBody(body) } : { body }, handlers);
    } else {
      const body = data as AzureAccountBody;
      azure.mutate(
        edited?.provider === 'azure'
          ? { key: { tenantId: edited.account.tenantId, subscriptionId: edited.account.subscriptionId }, body: toUpdateAzureBody(body) }
          : { body },
        handlers,
      );
    }
  });

  /** A secret still at its placeholder is selected on focus, so typing replaces it. */
  const selectPlaceholder = (e: FocusEvent<HTMLInputElement>) => {
    if (e.currentTarget.value === SENSITIVE_PLACEHOLDER) e.currentTarget.select();
  };

  return (
    <Modal
      opened={opened}
      onClose={busy ? () => undefined : onClose}
      centered
      radius="md"
      size="lg"
      title={
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={30} radius="md" variant="light" color={meta.color}>
            {meta.icon(18)}
          </ThemeIcon>
          <Text fw={600}>{cloudAccountMessages.dialogTitle(provider)}</Text>
        </Group>
      }
    >
      <form onSubmit={submit} noValidate data-testid={`cloud-account-form-${provider}`}>
        <Stack gap="md">
          {FIELDS[provider].map((f, i) => {
            const common = {
              label: f.label,
              placeholder: f.placeholder,
              description: f.secret && editing ? 'Leave it at (sensitive) to keep the stored value' : f.description,
              disabled: busy || (editing && f.lockedOnEdit),
              withAsterisk: true,
              'data-autofocus': i === 0 && !editing ? true : undefined,
              onFocus: f.secret ? selectPlaceholder : undefined,
              ...form.field(f.name),
            };
            return f.password ? (
              <PasswordInput key={f.name} autoComplete="new-password" {...common} />
            ) : (
              <TextInput key={f.name} autoComplete="off" {...common} />
            );
          })}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {editing ? 'Update' : 'Connect'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
