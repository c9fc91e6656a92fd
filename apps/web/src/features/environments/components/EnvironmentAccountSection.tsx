import { Anchor, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { AWS_REGIONS, GCP_REGIONS, gcpZones } from '@gantry/contracts';
import { FormSection } from '../../../ui/FormSection';
import { useAwsAccounts, useAzureAccounts, useGcpAccounts } from '../../cloud-accounts';
import { textSelect, type EnvironmentForm, type EnvironmentFormMode } from './environment-form';

/** The account the environment deploys to (spec §2), from the project's connected cloud accounts (read through their feature). */
export function EnvironmentAccountSection({
  form,
  mode,
  locked,
  projectId,
}: {
  form: EnvironmentForm;
  mode: EnvironmentFormMode;
  locked: boolean;
  projectId: string;
}) {
  const v = form.values;
  const aws = useAwsAccounts(projectId);
  const azure = useAzureAccounts(projectId);
  const gcp = useGcpAccounts(projectId);
  const zones = useMemo(() => (v.gcpRegion ? gcpZones(v.gcpRegion) : []), [v.gcpRegion]);
  const awsOptions = (aws.data ?? []).map((a) => ({ value: a.id, label: `${a.accountName} (${a.id})` }));
  const azureOptions = (azure.data ?? []).map((a) => ({ value: `${a.tenantId}|${a.subscriptionId}`, label: `${a.subscriptionName} (${a.subscriptionId})` }));
  const gcpOptions = (gcp.data ?? []).map((a) => ({ value: a.gcpProjectId, label: `${a.projectName} (${a.gcpProjectId})` }));

  return (
    <FormSection title="Cloud account" description="The account the environment deploys to">
      {v.cloudProvider === 'aws' && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="AWS Account"
              placeholder="Select an AWS account"
              data={awsOptions}
              withAsterisk
              maxDropdownHeight={300}
              disabled={locked}
              nothingFoundMessage="Connect an AWS account in Settings → Cloud Accounts"
              {...textSelect(form, 'awsAccountId')}
            />
            <Select
              label="Region"
              placeholder="Select a region"
              data={[...AWS_REGIONS]}
              searchable
              withAsterisk
              maxDropdownHeight={300}
              disabled={locked}
              {...textSelect(form, 'awsRegion')}
            />
          </SimpleGrid>
          {aws.isSuccess && aws.data.length === 0 && <NoAccountYet what="AWS account" />}
        </>
      )}
      {v.cloudProvider === 'azurerm' && (
        <Stack gap="sm">
          {azureOptions.length > 0 && mode !== 'edit' && (
            <Select
              label="Azure subscription"
              placeholder="Pick a connected subscription"
              data={azureOptions}
              maxDropdownHeight={300}
              disabled={locked}
              value={v.tenantId && v.subscriptionId ? `${v.tenantId}|${v.subscriptionId}` : null}
              onChange={(x) => {
                const [t, s] = (x ?? '|').split('|');
                form.setValues({ tenantId: t ?? '', subscriptionId: s ?? '' });
              }}
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Tenant ID" withAsterisk disabled={mode === 'edit'} {...form.getInputProps('tenantId')} />
            <TextInput label="Subscription ID" withAsterisk disabled={mode === 'edit'} {...form.getInputProps('subscriptionId')} />
          </SimpleGrid>
          {azure.isSuccess && azure.data.length === 0 && mode !== 'edit' && <NoAccountYet what="Azure subscription" />}
        </Stack>
      )}
      {v.cloudProvider === 'google' && (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label="GCP Project"
            placeholder="Select a project"
            data={gcpOptions}
            withAsterisk
            maxDropdownHeight={300}
            disabled={locked}
            {...textSelect(form, 'gcpProjectId')}
          />
          <Select
            label="Region"
            placeholder="Select a region"
            data={Object.keys(GCP_REGIONS)}
            searchable
            withAsterisk
            maxDropdownHeight={300}
            disabled={locked}
            value={v.gcpRegion || null}
            onChange={(r) => form.setValues({ gcpRegion: r ?? '', gcpZone: '' })}
            error={form.errors.gcpRegion}
          />
          <Select
            label="Zone"
            placeholder="Select a zone"
            data={zones}
            withAsterisk
            maxDropdownHeight={300}
            disabled={locked || !v.gcpRegion}
            {...textSelect(form, 'gcpZone')}
          />
        </SimpleGrid>
      )}
      {v.cloudProvider === 'google' && gcp.isSuccess && gcp.data.length === 0 && <NoAccountYet what="GCP project" />}
    </FormSection>
  );
}

/**
 * Under the fields of a provider the project has no account of: the server refuses an environment on an account that is
 * not connected ('Please select an Azure subscription of this project'), so the form says where to connect one, for
 * Azure and Google Cloud as for AWS (their fields said nothing, and the refusal came only on Create).
 */
function NoAccountYet({ what }: { what: string }) {
  return (
    <Text size="xs" c="dimmed" mt="xs">
      No {what} connected yet:{' '}
      <Anchor component={Link} to="/settings?tab=accounts" size="xs">
        connect one in Settings
      </Anchor>
      .
    </Text>
  );
}
