import { Anchor, Button, Card, Group, Select, Skeleton, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconArrowLeft, IconBrandBitbucket, IconBrandGithub, IconBrandGitlab } from '@tabler/icons-react';
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PipelineBody, UpdatePipelineBody, type Pipeline } from '@gantry/contracts';
import { isApiError } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { PageHeader } from '../../../ui/PageHeader';
import { useCreatePipeline } from '../api/create-pipeline';
import { usePipeline } from '../api/get-pipeline';
import { useGitAccounts, useGitRepositories } from '../../git-accounts';
import { useUpdatePipeline } from '../api/update-pipeline';
import { EnvironmentVariablesField, newEnvRow, type EnvRow } from '../components/EnvironmentVariablesField';
import { repositoryName } from '../lib/commit';
import { PipelineLoadError } from '../components/PipelineLoadError';
import { FormSection } from '../../../ui/FormSection';
import { firstFieldMessages, firstIssueMessages } from '../../../ui/form-errors';

const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

type FormState = {
  name: string;
  gitAccountId: string | null;
  repositoryUrl: string | null;
  branchFilter: string;
  automatedTrigger: boolean;
  workDir: string;
  modifiedFiles: string;
  environmentVariables: EnvRow[];
};

/** Spec §5 defaults: branch filter 'master', workdir '/', automated trigger on. */
const EMPTY: FormState = { name: '', gitAccountId: null, repositoryUrl: null, branchFilter: 'master', automatedTrigger: true, workDir: '/', modifiedFiles: '', environmentVariables: [] };

const fromPipeline = (p: Pipeline): FormState => ({
  name: p.name,
  gitAccountId: p.gitAccountId,
  repositoryUrl: p.repositoryUrl,
  branchFilter: p.branchFilter,
  automatedTrigger: p.automatedTrigger,
  workDir: p.workDir || '/',
  modifiedFiles: p.modifiedFiles,
  environmentVariables: p.environmentVariables.map((v) => newEnvRow({ key: v.key, value: v.value, sensitive: v.sensitive })),
});

const providerIcon: Record<string, ReactNode> = {
  github: <IconBrandGithub size={16} />,
  gitlab: <IconBrandGitlab size={16} />,
  bitbucket: <IconBrandBitbucket size={16} />,
};

/** /pipelines/create and /pipelines/:pipelineId/edit (spec §2, §5). Validates on submit with the server's schema. */
export default function PipelineFormPage() {
  const { pipelineId } = useParams();
  const editing = Boolean(pipelineId);
  const projectId = useCurrentProject()?.id ?? '';
  const navigate = useNavigate();
  const pipeline = usePipeline(projectId, pipelineId);
  const accounts = useGitAccounts(projectId);
  const [form, setForm] = useState<FormState>(EMPTY);
  const [loaded, setLoaded] = useState(!editing);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [envMessage, setEnvMessage] = useState<string | null>(null);
  const repositories = useGitRepositories(projectId, form.gitAccountId);
  const create = useCreatePipeline(projectId);
  const update = useUpdatePipeline(projectId, pipelineId ?? '');
  const saving = create.isPending || update.isPending;

  useEffect(() => {
    if (editing && pipeline.data && !loaded) {
      setForm(fromPipeline(pipeline.data));
      setLoaded(true);
    }
  }, [editing, pipeline.data, loaded]);

  useEffect(() => {
    if (pipeline.error) toast.apiError(pipeline.error);
  }, [pipeline.error]);

  useEffect(() => {
    if (repositories.error) toast.apiError(repositories.error, "Can't fetch repositories for selected account");
  }, [repositories.error]);

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  };

  const accountOptions = useMemo(
    () => (accounts.data ?? []).map((a) => ({ value: a.gitAccountId, label: a.accountName, type: a.type })),
    [accounts.data],
  );
  const repositoryOptions = useMemo(() => {
    const list = (repositories.data ?? []).map((r) => ({ value: r.url, label: r.fullName }));
    // The saved repository stays selectable even before (or without) the list answering.
    if (form.repositoryUrl && !list.some((r) => r.value === form.repositoryUrl)) list.unshift({ value: form.repositoryUrl, label: repositoryName(form.repositoryUrl) });
    return list;
  }, [repositories.data, form.repositoryUrl]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const values = {
      name: form.name,
      gitAccountId: form.gitAccountId ?? undefined,
      repositoryUrl: form.repositoryUrl ?? '',
      branchFilter: form.branchFilter,
      automatedTrigger: form.automatedTrigger,
      workDir: form.workDir,
      modifiedFiles: form.modifiedFiles,
      environmentVariables: form.environmentVariables.map(({ key, value, sensitive }) => ({ key, value, sensitive })),
    };
    const parsed = editing ? UpdatePipelineBody.safeParse(values) : PipelineBody.safeParse(values);
    if (!parsed.success) {
      setErrors(firstIssueMessages(parsed.error));
      return;
    }
    setErrors({});
    const onError = (err: unknown) => {
      if (isApiError(err) && err.fields) setErrors(firstFieldMessages(err.fields));
      toast.apiError(err);
    };
    if (editing && pipelineId) {
      update.mutate(parsed.data as UpdatePipelineBody, {
        onSuccess: () => {
          toast.success(`Pipeline ${form.name} has been updated`);
          navigate(`/pipelines/${pipelineId}/details`);
        },
        onError,
      });
    } else {
      create.mutate(parsed.data as PipelineBody, {
        onSuccess: ({ pipelineId: id }) => {
          toast.success(`Pipeline ${form.name.trim()} has been created`);
          navigate(`/pipelines/${id}/details`);
        },
        onError,
      });
    }
  };

  const title = editing ? 'Edit Pipeline' : 'Create Pipeline';

  if (editing && pipeline.isError) {
    return (
      <Stack>
        <PageHeader title={title} />
        <PipelineLoadError error={pipeline.error} />
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={860}>
      <Anchor component={Link} to={editing ? `/pipelines/${pipelineId}/details` : '/pipelines'} size="sm" c="dimmed">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {editing ? 'Back to pipeline' : 'Back to pipelines'}
        </Group>
      </Anchor>
      <PageHeader title={title} description={editing ? form.name : 'Connect a repository and choose when your pipeline runs'} />
      {!loaded ? (
        <Card withBorder radius="md" padding="lg">
          <Stack>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={36} radius="sm" />
            ))}
          </Stack>
        </Card>
      ) : (
        <form onSubmit={submit} noValidate data-testid="pipeline-form">
          <Stack gap="lg">
            <FormSection title="General">
              <TextInput
                label="Pipeline name"
                placeholder="my-service"
                withAsterisk
                disabled={editing}
                value={form.name}
                onChange={(e) => set('name', e.currentTarget.value)}
                error={errors.name}
                description={editing ? 'The name of a pipeline cannot be changed' : '3 to 30 characters'}
              />
            </FormSection>

            <FormSection title="Source" description="The Git account and repository the pipeline builds">
              <Select
                label="Git account"
                placeholder={accounts.isPending ? 'Loading accounts…' : 'Select a Git account'}
                withAsterisk
                data={accountOptions}
                value={form.gitAccountId}
                onChange={(v) => {
                  setForm((f) => ({ ...f, gitAccountId: v, repositoryUrl: v === f.gitAccountId ? f.repositoryUrl : null }));
                  setErrors((e) => ({ ...e, gitAccountId: undefined, repositoryUrl: undefined }));
                }}
                renderOption={({ option }) => (
                  <Group gap="xs" wrap="nowrap">
                    {providerIcon[(option as (typeof accountOptions)[number]).type]}
                    <Text size="sm">{option.label}</Text>
                  </Group>
                )}
                leftSection={form.gitAccountId ? providerIcon[accountOptions.find((a) => a.value === form.gitAccountId)?.type ?? ''] : undefined}
                nothingFoundMessage="No Git accounts available."
                error={errors.gitAccountId}
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
                placeholder={!form.gitAccountId ? 'Select a Git account first' : repositories.isPending ? 'Loading repositories…' : 'Select a repository'}
                withAsterisk
                searchable
                disabled={!form.gitAccountId}
                data={repositoryOptions}
                value={form.repositoryUrl}
                onChange={(v) => set('repositoryUrl', v)}
                nothingFoundMessage={repositories.isPending ? 'Loading…' : 'No repositories found'}
                error={errors.repositoryUrl}
                allowDeselect={false}
              />
            </FormSection>

            <FormSection title="Triggers" description="Run the pipeline automatically when matching commits are pushed">
              <Switch
                label="Automated trigger"
                description="Trigger a build on every push that matches the branch filter and modified files"
                checked={form.automatedTrigger}
                onChange={(e) => set('automatedTrigger', e.currentTarget.checked)}
              />
              <TextInput
                label="Branch filter"
                placeholder="master"
                withAsterisk
                disabled={!form.automatedTrigger}
                value={form.branchFilter}
                onChange={(e) => set('branchFilter', e.currentTarget.value)}
                error={errors.branchFilter}
                description="A branch name or a regular expression, e.g. master or release/.*"
                styles={MONO}
              />
              <TextInput
                label="Modified files"
                placeholder="src/**, package.json"
                disabled={!form.automatedTrigger}
                value={form.modifiedFiles}
                onChange={(e) => set('modifiedFiles', e.currentTarget.value)}
                error={errors.modifiedFiles}
                description="Glob patterns separated by commas. Empty or / means any file change."
                styles={MONO}
              />
            </FormSection>

            <FormSection title="Build" description="Where the pipeline finds its spec and what its steps see">
              <TextInput
                label="Work directory"
                placeholder="/"
                value={form.workDir}
                onChange={(e) => set('workDir', e.currentTarget.value)}
                error={errors.workDir}
                description="The pipeline spec file (gantry.yaml) and the schema file (schema.json) are expected in this directory"
                styles={MONO}
              />
              <div>
                <Text size="sm" fw={500} mb={6}>
                  Environment variables
                </Text>
                <EnvironmentVariablesField
                  rows={form.environmentVariables}
                  onChange={(rows) => {
                    setForm((f) => ({ ...f, environmentVariables: rows }));
                    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('environmentVariables'))));
                  }}
                  errors={errors}
                  message={envMessage}
                  onMessage={setEnvMessage}
                />
              </div>
            </FormSection>

            <Group justify="flex-end">
              <Button variant="default" component={Link} to={editing ? `/pipelines/${pipelineId}/details` : '/pipelines'} disabled={saving}>
                Cancel
              </Button>
              <Button type="submit" loading={saving}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
