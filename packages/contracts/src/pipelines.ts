import { z } from 'zod';
import { InputText, InputUuid, RequiredText } from './common.js';
import { isSpecWithinSize, SPEC_TOO_LARGE_MESSAGE } from './pipeline-spec-limits.js';
import { BRANCH_NAME_MESSAGE, isValidBranchName } from './branch-name.js';

export const GIT_PROVIDERS = ['github', 'gitlab', 'bitbucket'] as const;
export const GitProvider = z.enum(GIT_PROVIDERS);
export type GitProvider = z.infer<typeof GitProvider>;

export const GitAccount = z.object({ gitAccountId: z.string(), accountName: z.string(), type: GitProvider });
export type GitAccount = z.infer<typeof GitAccount>;
export const ConnectGitAccountBody = z.object({ code: InputText().min(1), type: GitProvider, redirectUri: InputText().url().optional() });
export type ConnectGitAccountBody = z.infer<typeof ConnectGitAccountBody>;
export const GitRepository = z.object({ id: z.string(), fullName: z.string(), url: z.string(), defaultBranch: z.string().optional() });
export type GitRepository = z.infer<typeof GitRepository>;
export const GitAccountParams = z.object({ projectId: InputUuid(), gitAccountId: InputUuid() });

export const BUILD_STATUSES = ['SCHEDULING', 'QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'ABORTED'] as const;
export const BuildStatus = z.enum(BUILD_STATUSES);
export type BuildStatus = z.infer<typeof BuildStatus>;
export const ACTIVE_BUILD_STATUSES: readonly BuildStatus[] = ['SCHEDULING', 'QUEUED', 'RUNNING'];
export const isBuildActive = (s: string | null | undefined) => ACTIVE_BUILD_STATUSES.includes(s as BuildStatus);

export const EnvironmentVariable = z.object({
  key: InputText()
    .trim()
    .min(1, 'Please enter key and value')
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Use letters, digits and _ only, not starting with a digit'),
  value: InputText().min(1, 'Please enter key and value'),
  sensitive: z.boolean().default(false),
});
export type EnvironmentVariable = z.infer<typeof EnvironmentVariable>;

/** Spec §5 pipeline form: name 3–30; branch filter, account and repository required; defaults master, '/', on. */
export const PipelineBody = z.object({
  name: InputText().trim().min(3, 'Pipeline name must be at least 3 characters').max(30, 'Pipeline name must be at most 30 characters'),
  gitAccountId: InputUuid('Please select a Git account'),
  repositoryUrl: RequiredText('Git repository'),
  branchFilter: InputText()
    .trim()
    .min(1, 'Branch filter is required')
    .default('master')
    .refine(isValidRegex, 'Branch filter is not a valid regular expression'),
  automatedTrigger: z.boolean().default(true),
  workDir: InputText().trim().default('/'),
  modifiedFiles: InputText().trim().default(''),
  environmentVariables: z.array(EnvironmentVariable).default([]),
});
export type PipelineBody = z.input<typeof PipelineBody>;
export const UpdatePipelineBody = PipelineBody.omit({ name: true });
export type UpdatePipelineBody = z.input<typeof UpdatePipelineBody>;

function isValidRegex(s: string) {
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
}

export const Commit = z.object({
  name: z.string(), // the sha
  message: z.string(),
  version: z.string(),
  user: z.object({ name: z.string(), avatar: z.string().nullable() }),
});
export type Commit = z.infer<typeof Commit>;

export const Artifact = z.object({
  id: z.string(),
  kind: z.enum(['files', 'json', 'reports']),
  name: z.string(),
  location: z.string(),
  files: z.number().int(),
  size: z.number().int(),
});
export type Artifact = z.infer<typeof Artifact>;

export const BuildStep = z.object({
  name: z.string(),
  title: z.string().nullable().optional(),
  stage: z.string().nullable(),
  type: z.string(),
  status: BuildStatus.nullable(),
  startDate: z.string().nullable(),
  stopDate: z.string().nullable(),
  errorMessage: z.string().nullable(),
  artifacts: z.array(Artifact),
  reports: z.record(z.string(), z.unknown()).nullable(),
});
export type BuildStep = z.infer<typeof BuildStep>;

export const Build = z.object({
  id: z.string(),
  number: z.number().int(),
  name: z.string(),
  pipelineId: z.string(),
  status: BuildStatus,
  branch: z.string(),
  startDate: z.string().nullable(),
  stopDate: z.string().nullable(),
  createdAt: z.string(),
  errorMessage: z.string().nullable(),
  trigger: z.string(),
  metadata: z.object({ commit: Commit.nullable() }),
  stages: z.array(z.object({ name: z.string() })),
  steps: z.array(BuildStep),
});
export type Build = z.infer<typeof Build>;

export const Pipeline = z.object({
  id: z.string(),
  name: z.string(),
  gitAccountId: z.string(),
  repositoryUrl: z.string(),
  branchFilter: z.string(),
  automatedTrigger: z.boolean(),
  workDir: z.string(),
  modifiedFiles: z.string(),
  environmentVariables: z.array(EnvironmentVariable),
  /** The latest build with its steps and their artifacts (spec §3), by which the list's Reports column reads as the Builds tab's. */
  latestBuild: Build.omit({ stages: true }).nullable(),
  createdAt: z.string(),
});
export type Pipeline = z.infer<typeof Pipeline>;

export const PipelineParams = z.object({ projectId: InputUuid(), pipelineId: InputUuid() });
export const BuildParams = PipelineParams.extend({ buildId: InputUuid() });
/** A page of builds, newest first: by `offset` (spec §7), or after `cursor`, the id of the last build of the page before. */
export const BuildsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).default(0),
  cursor: InputUuid().optional(),
  search: InputText().optional(),
});
/** Most pipelines one list call answers; more come by `cursor` (the `nextCursor` of the page before). */
export const PIPELINE_PAGE_MAX = 500;
export const PipelinesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PIPELINE_PAGE_MAX).default(PIPELINE_PAGE_MAX),
  cursor: InputText().max(200).optional(),
});
/** Pipelines by name; `nextCursor` is set when more follow. */
export const PipelineList = z.object({ pipelines: z.array(Pipeline), nextCursor: z.string().nullable() });
export type PipelineList = z.infer<typeof PipelineList>;
const BRANCH_REF = 'refs/heads/';
export const TriggerBody = z.object({
  ref: InputText()
    .regex(/^refs\/heads\/.+/, 'ref must look like refs/heads/{branch}')
    .refine((ref) => !ref.startsWith(BRANCH_REF) || isValidBranchName(ref.slice(BRANCH_REF.length)), BRANCH_NAME_MESSAGE),
});
/** `specFile`: the repository file the spec was read from (`gantry.yaml` or `.microtica/microtica.yaml` under the work dir), when it is kept there. */
/** `branch`: the branch the repository was read on; `isDefault`: no spec is kept in Gantry yet (the default template is shown). */
export const PipelineSpec = z.object({
  sourceCode: z.boolean(),
  gantryYaml: z.string(),
  specFile: z.string().optional(),
  branch: z.string().optional(),
  isDefault: z.boolean().optional(),
});
export type PipelineSpec = z.infer<typeof PipelineSpec>;
export const UpdateSpecBody = z.object({ gantryYaml: InputText().refine(isSpecWithinSize, SPEC_TOO_LARGE_MESSAGE) });
export const PipelineMetrics = z.object({ successfulExecutions: z.number().int(), failedExecutions: z.number().int(), buildTime: z.number() });
export type PipelineMetrics = z.infer<typeof PipelineMetrics>;
export const BuildLimitations = z.object({ buildMinutes: z.number(), usedBuildMinutes: z.number() });
export const LogChunk = z.object({ buildId: z.string(), step: z.string(), seq: z.number().int(), text: z.string() });
export type LogChunk = z.infer<typeof LogChunk>;

/** Build page size and polling (spec §9). */
export const BUILD_PAGE_SIZE = 10;
export const PIPELINE_LIST_POLL_MS = 10_000;
export const BUILD_POLL_MS = 5_000;
export const SPEC_VALIDATION_DEBOUNCE_MS = 2_000;

/** Success rate = successful / (successful + failed) × 100, 0 with no builds, 2 decimals (spec §9). */
export function successRate(m: { successfulExecutions: number; failedExecutions: number }): string {
  const total = m.successfulExecutions + m.failedExecutions;
  return (total ? (m.successfulExecutions / total) * 100 : 0).toFixed(2);
}
export const msToMinutes = (ms: number) => (ms / 60_000).toFixed(2);

/** Display class of a build status (spec §4); anything else shows as no build. */
export function buildStatusClass(status: string | null | undefined): 'warning' | 'success' | 'fail' | 'aborted' | 'queued' | 'nobuild' {
  switch (status) {
    case 'RUNNING':
    case 'SCHEDULING':
      return 'warning';
    case 'SUCCEEDED':
      return 'success';
    case 'FAILED':
      return 'fail';
    case 'ABORTED':
      return 'aborted';
    case 'QUEUED':
      return 'queued';
    default:
      return 'nobuild';
  }
}

/** Pipelines sort by latest build stop date, newest first; no-build last (spec §2). */
export function sortPipelines<T extends { latestBuild: { stopDate: string | null; startDate?: string | null; createdAt?: string } | null }>(
  list: readonly T[],
): T[] {
  const key = (p: T) =>
    p.latestBuild ? Date.parse(p.latestBuild.stopDate ?? p.latestBuild.startDate ?? p.latestBuild.createdAt ?? '') || Number.MAX_SAFE_INTEGER : -1;
  return [...list].sort((a, b) => key(b) - key(a));
}

/** HH:mm:ss of a duration in ms. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':');
}

/** Does a branch match the pipeline's branch filter (a regex, anchored to the whole name)? */
export function branchMatches(filter: string, branch: string): boolean {
  const f = filter.trim();
  if (!f) return true;
  try {
    return new RegExp(`^(?:${f})$`).test(branch);
  } catch {
    return f === branch;
  }
}

/** Glob → RegExp: ** any path, * within a segment, ? one character. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  const g = glob.trim().replace(/^\.?\//, '');
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (c === '*') {
      if (g[i + 1] === '*') {
        re += g[i + 2] === '/' ? '(?:.*/)?' : '.*';
        i += g[i + 2] === '/' ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}(?:/.*)?$`);
}

/** Spec: modified files are comma-separated globs; empty or '/' means any change. */
export function filesMatch(modifiedFiles: string, changed: readonly string[]): boolean {
  const patterns = modifiedFiles
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!patterns.length || patterns.includes('/')) return true;
  const res = patterns.map(globToRegExp);
  return changed.some((file) => res.some((r) => r.test(file.replace(/^\//, ''))));
}

/**
 * The project timeline (account spec §3): builds, environments' deployments (entityType STAGE) and services'
 * deploys and undeploys to a cluster (microserviceName, with the cluster and namespace they went to).
 */
export const TimelineEvent = z.object({
  type: z.enum(['build', 'deployment']),
  projectId: z.string(),
  status: z.string(),
  timestamp: z.string(),
  buildId: z.string().optional(),
  buildNumber: z.number().int().optional(),
  pipelineName: z.string().optional(),
  pipelineId: z.string().optional(),
  deploymentId: z.string().optional(),
  stageName: z.string().optional(),
  stageId: z.string().optional(),
  entityType: z.literal('STAGE').optional(),
  microserviceName: z.string().optional(),
  clusterId: z.string().optional(),
  namespace: z.string().optional(),
  version: z.string().optional(),
});
export type TimelineEvent = z.infer<typeof TimelineEvent>;
/** How many of its newest events each source (builds, environments' deployments, services' deploys) gives the timeline. */
export const TIMELINE_SOURCE_LIMIT = 50;
export const TimelineQuery = z.object({ type: z.enum(['build', 'deployment', 'Build', 'Deployment']).optional() });
