import type { Pipeline } from '@gantry/contracts';
import type { FormApi } from '../../../ui/form';
import { newEnvRow, type EnvRow } from './EnvironmentVariablesField';

/** The pipeline form's values (spec §5): selects hold null until chosen, variables are rows with an id for React. */
export type PipelineFormValues = {
  name: string;
  gitAccountId: string | null;
  repositoryUrl: string | null;
  branchFilter: string;
  automatedTrigger: boolean;
  workDir: string;
  modifiedFiles: string;
  environmentVariables: EnvRow[];
};
export type PipelineForm = FormApi<PipelineFormValues>;

/** Spec §5 defaults: branch filter 'master', workdir '/', automated trigger on. */
export const EMPTY_PIPELINE_FORM: PipelineFormValues = {
  name: '',
  gitAccountId: null,
  repositoryUrl: null,
  branchFilter: 'master',
  automatedTrigger: true,
  workDir: '/',
  modifiedFiles: '',
  environmentVariables: [],
};

export const pipelineFormValues = (p: Pipeline): PipelineFormValues => ({
  name: p.name,
  gitAccountId: p.gitAccountId,
  repositoryUrl: p.repositoryUrl,
  branchFilter: p.branchFilter,
  automatedTrigger: p.automatedTrigger,
  workDir: p.workDir || '/',
  modifiedFiles: p.modifiedFiles,
  environmentVariables: p.environmentVariables.map((v) => newEnvRow({ key: v.key, value: v.value, sensitive: v.sensitive })),
});

/** What PipelineBody / UpdatePipelineBody are given. */
export const pipelineFormInput = (v: PipelineFormValues) => ({
  name: v.name,
  gitAccountId: v.gitAccountId ?? undefined,
  repositoryUrl: v.repositoryUrl ?? '',
  branchFilter: v.branchFilter,
  automatedTrigger: v.automatedTrigger,
  workDir: v.workDir,
  modifiedFiles: v.modifiedFiles,
  environmentVariables: v.environmentVariables.map(({ key, value, sensitive }) => ({ key, value, sensitive })),
});

export const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };
