import { Anchor, Group, Select, Text } from '@mantine/core';
import { IconBrandBitbucket, IconBrandGithub, IconBrandGitlab } from '@tabler/icons-react';
import { useEffect, useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from '../../../api/toast';
import { FormSection } from '../../../ui/FormSection';
import { useGitAccounts, useGitRepositories } from '../../git-accounts';
import { repositoryName } from '../lib/commit';
import type { PipelineForm } from './pipeline-form';

const providerIcon: Record<string, ReactNode> = {
  github: <IconBrandGithub size={16} />,
  gitlab: <IconBrandGitlab size={16} />,
  bitbucket: <IconBrandBitbucket size={16} />,
};

/** The Git account and the repository (spec §5): another account clears the repository. */
export function PipelineSourceSection({ form, projectId }: { form: PipelineForm; projectId: string }) {
  const { gitAccountId, repositoryUrl } = form.values;
  const accounts = useGitAccounts(projectId);
  const repositories = useGitRepositories(projectId, gitAccountId);

  useEffect(() => {
    if (repositories.error) toast.apiError(repositories.error, "Can't fetch repositories for selected account");
  }, [repositories.error]);

  const accountOptions = useMemo(() => (accounts.data ?? []).map((a) => ({ value: a.gitAccountId, label: a.accountName, type: a.type })), [accounts.data]);
  const repositoryOptions = useMemo(() => {
    const list = (repositories.data ?? []).map((r) => ({ value: r.url, label: r.fullName }));
    // The saved repository stays selectable even before (or without) the list answering.
    if (repositoryUrl && !list.some((r) => r.value === repositoryUrl)) list.unshift({ value: repositoryUrl, label: repositoryName(repositoryUrl) });
    return list;
  }, [repositories.data, repositoryUrl]);

  return (
    <FormSection title="Source" description="The Git account and repository the pipeline builds">
      <Select
        label="Git account"
        placeholder={accounts.isPending ? 'Loading accounts…' : 'Select a Git account'}
        withAsterisk
        data={accountOptions}
        value={gitAccountId}
        onChange={(v) => {
          form.setValues((f) => ({ gitAccountId: v, repositoryUrl: v === f.gitAccountId ? f.repositoryUrl : null }));
          form.clearErrors('gitAccountId', 'repositoryUrl');
        }}
        renderOption={({ option }) => (
          <Group gap="xs" wrap="nowrap">
            {providerIcon[(option as (typeof accountOptions)[number]).type]}
            <Text size="sm">{option.label}</Text>
          </Group>
        )}
        leftSection={gitAccountId ? providerIcon[accountOptions.find((a) => a.value === gitAccountId)?.type ?? ''] : undefined}
        nothingFoundMessage="No Git accounts available."
        error={form.errors.gitAccountId}
        allowDeselect={false}
        description={
          accounts.isSuccess && accounts.data.length === 0 ? (
            <>
              No Git account is connected to this project yet.{' '}
              <Anchor component={Link} to="/settings?tab=git" size="xs">
                Connect a Git account
              </Anchor>
            </>
          ) : undefined
        }
      />
      <Select
        label="Git repository"
        placeholder={!gitAccountId ? 'Select a Git account first' : repositories.isPending ? 'Loading repositories…' : 'Select a repository'}
        withAsterisk
        searchable
        disabled={!gitAccountId}
        data={repositoryOptions}
        {...form.getInputProps('repositoryUrl')}
        nothingFoundMessage={repositories.isPending ? 'Loading…' : 'No repositories found'}
        allowDeselect={false}
      />
    </FormSection>
  );
}
