import crypto from 'node:crypto';
import {
  SENSITIVE_PLACEHOLDER,
  DEFAULT_SPEC_TEMPLATE,
  type PipelineBody,
  type UpdatePipelineBody,
  type EnvironmentVariable,
  type Pipeline,
  type PipelineList,
  type PipelineSpec,
} from '@gantry/contracts';
import type { Db } from '../../platform/db.js';
import type { SecretBox } from '../../platform/secrets.js';
import { Conflict, NotFound, Upstream, Validation } from '../../platform/errors.js';
import type { BillingService } from '../billing/billing.port.js';
import type { PipelinesStore, PipelineRow } from './pipelines.store.js';
import type { StoredVariable } from './pipelines.tables.js';
import { type GitAccess, readRepoSpec, defaultBranchOf } from './git-access.js';
import { validateSpecOffThread } from './spec-validation.js';

export interface LatestBuildLookup {
  latestFor(pipelineIds: string[]): Promise<Map<string, Pipeline['latestBuild']>>;
  removeArtifactsOf(pipelineId: string): Promise<void>;
}

export function createPipelinesService(deps: {
  db: Db;
  store: PipelinesStore;
  secrets: SecretBox;
  billing: BillingService;
  git: GitAccess;
  baseUrl: () => string;
  builds?: LatestBuildLookup;
}) {
  const { store, secrets, billing, git } = deps;

  function sealVariables(vars: z_EnvVar[], previous: StoredVariable[] = []): StoredVariable[] {
    return vars.map((v) => {
      if (!v.sensitive) return { key: v.key, value: v.value, sensitive: false };
      if (v.value === SENSITIVE_PLACEHOLDER) {
        const old = previous.find((p) => p.key === v.key && p.sensitive);
        if (!old) throw new Validation(`Enter a value for the sensitive variable ${v.key}`, { environmentVariables: [`Enter a value for ${v.key}`] });
        return old;
      }
      return { key: v.key, value: secrets.seal(v.value), sensitive: true };
    });
  }

  function toPipeline(row: PipelineRow, latestBuild: Pipeline['latestBuild'] = null): Pipeline {
    return {
      id: row.id,
      name: row.name,
      gitAccountId: row.gitAccountId,
      repositoryUrl: row.repositoryUrl,
      branchFilter: row.branchFilter,
      automatedTrigger: row.automatedTrigger,
      workDir: row.workDir,
      modifiedFiles: row.modifiedFiles,
      environmentVariables: row.environmentVariables.map((v) => ({ key: v.key, value: v.sensitive ? SENSITIVE_PLACEHOLDER : v.value, sensitive: v.sensitive })),
      latestBuild,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async function repositoryFor(projectId: string, gitAccountId: string, repositoryUrl: string) {
    const { client, token } = await git.clientFor(projectId, gitAccountId);
    const repos = await client.listRepositories(token).catch((err: Error) => {
      throw new Upstream(`Could not list the repositories of the Git account: ${err.message}`);
    });
    const norm = (u: string) =>
      u
        .replace(/\.git$/, '')
        .replace(/\/$/, '')
        .toLowerCase();
    const repo = repos.find((r) => norm(r.url) === norm(repositoryUrl) || r.fullName.toLowerCase() === repositoryUrl.toLowerCase());
    if (!repo)
      throw new Validation("The repository is not one of the Git account's repositories", {
        repositoryUrl: ['Please choose a repository of the selected Git account'],
      });
    return { repo, client, token };
  }

  async function get(projectId: string, id: string) {
    const row = await store.byId(projectId, id);
    if (!row) throw new NotFound('Pipeline not found');
    return row;
  }

  const webhookUrl = (row: { id: string }, type: string) => `${deps.baseUrl()}/ms-ap/webhooks/${type}/${row.id}`;

  async function dropWebhook(row: PipelineRow) {
    if (!row.webhookId) return;
    const { client, token } = await git.clientFor(row.projectId, row.gitAccountId);
    await client.deleteWebhook(token, row.repositoryFullName, row.webhookId);
  }

  async function addWebhook(row: PipelineRow) {
    const { client, token, account } = await git.clientFor(row.projectId, row.gitAccountId);
    const secret = crypto.randomBytes(24).toString('hex');
    const webhookId = await client.createWebhook(token, row.repositoryFullName, webhookUrl(row, account.type), secret).catch((err: Error) => {
      throw new Upstream(`Could not register the push webhook on the repository: ${err.message}`);
    });
    return { webhookId, webhookSecretSealed: secrets.seal(secret) };
  }

  return {
    toPipeline,
    get,

    /** A page of the project's pipelines by name with their latest builds; `nextCursor` when more follow. */
    async list(projectId: string, page: { limit: number; cursor?: string }): Promise<PipelineList> {
      await billing.assertFeature(projectId, 'pipelinesManager');
      const rows = await store.page(projectId, page.limit + 1, page.cursor);
      const more = rows.length > page.limit;
      if (more) rows.pop();
      const latest = (await deps.builds?.latestFor(rows.map((r) => r.id))) ?? new Map();
      return { pipelines: rows.map((r) => toPipeline(r, latest.get(r.id) ?? null)), nextCursor: more ? rows.at(-1)!.name : null };
    },

    async one(projectId: string, id: string) {
      const row = await get(projectId, id);
      const latest = (await deps.builds?.latestFor([id])) ?? new Map();
      return toPipeline(row, latest.get(id) ?? null);
    },

    async create(projectId: string, body: z_Body) {
      await billing.assertFeature(projectId, 'pipelinesManager');
      if (await store.byName(projectId, body.name)) throw new Conflict(`A pipeline named ${body.name} already exists`);
      const { repo } = await repositoryFor(projectId, body.gitAccountId, body.repositoryUrl);
      let row = await store.insert({
        projectId,
        name: body.name,
        gitAccountId: body.gitAccountId,
        repositoryUrl: repo.url,
        repositoryFullName: repo.fullName,
        branchFilter: body.branchFilter,
        automatedTrigger: body.automatedTrigger,
        workDir: body.workDir || '/',
        modifiedFiles: body.modifiedFiles,
        environmentVariables: sealVariables(body.environmentVariables),
      });
      try {
        if (body.automatedTrigger) row = (await store.update(projectId, row.id, await addWebhook(row)))!;
      } catch (err) {
        await store.delete(projectId, row.id); // nothing half-made stays behind
        throw err;
      }
      return { pipelineId: row.id };
    },

    async update(projectId: string, id: string, body: z_UpdateBody) {
      const row = await get(projectId, id);
      const repoChanged = body.gitAccountId !== row.gitAccountId || body.repositoryUrl !== row.repositoryUrl;
      const repo = repoChanged
        ? (await repositoryFor(projectId, body.gitAccountId, body.repositoryUrl)).repo
        : { url: row.repositoryUrl, fullName: row.repositoryFullName };
      const next = {
        gitAccountId: body.gitAccountId,
        repositoryUrl: repo.url,
        repositoryFullName: repo.fullName,
        branchFilter: body.branchFilter,
        automatedTrigger: body.automatedTrigger,
        workDir: body.workDir || '/',
        modifiedFiles: body.modifiedFiles,
        environmentVariables: sealVariables(body.environmentVariables, row.environmentVariables),
      };
      let hooks = {};
      if (repoChanged || body.automatedTrigger !== row.automatedTrigger) {
        await dropWebhook(row).catch(() => undefined); // the old hook may already be gone at the provider
        hooks = body.automatedTrigger ? await addWebhook({ ...row, ...next }) : { webhookId: null, webhookSecretSealed: null };
      }
      return toPipeline((await store.update(projectId, id, { ...next, ...hooks }))!);
    },

    async remove(projectId: string, id: string) {
      const row = await get(projectId, id);
      await dropWebhook(row).catch(() => undefined); // a gone provider must not keep a pipeline alive
      await deps.builds?.removeArtifactsOf(id);
      await store.delete(projectId, id);
    },

    /** The spec as a build would read it: the repository's (gantry.yaml, else .microtica/microtica.yaml; read-only), else the one kept in Gantry. */
    async spec(projectId: string, id: string, ref?: string): Promise<PipelineSpec> {
      const row = await get(projectId, id);
      const { client, token } = await git.clientFor(projectId, row.gitAccountId);
      const branch = ref ?? defaultBranchOf(row.branchFilter);
      const fromRepo = await readRepoSpec({ client, token }, row.repositoryFullName, branch, row.workDir);
      if (fromRepo) return { sourceCode: true, gantryYaml: fromRepo.text, specFile: fromRepo.file, branch };
      return { sourceCode: false, gantryYaml: row.specYaml ?? DEFAULT_SPEC_TEMPLATE, branch, isDefault: row.specYaml === null };
    },

    async updateSpec(projectId: string, id: string, yaml: string) {
      const current = await this.spec(projectId, id);
      if (current.sourceCode) throw new Conflict(`This pipeline's spec is kept in its repository (${current.specFile}); change it there.`);
      const { errors } = await validateSpecOffThread(yaml);
      if (errors.length) throw new Validation(errors[0]!, { gantryYaml: errors });
      await store.update(projectId, id, { specYaml: yaml });
      return { sourceCode: false, gantryYaml: yaml, branch: current.branch, isDefault: false };
    },

    /** Plain values of the pipeline's variables for a build, and the ones to mask in its logs. */
    variablesForBuild(row: PipelineRow) {
      const env: Record<string, string> = {};
      const masked: string[] = [];
      for (const v of row.environmentVariables) {
        env[v.key] = v.sensitive ? secrets.open(v.value) : v.value;
        if (v.sensitive) masked.push(env[v.key]!);
      }
      return { env, masked };
    },

    webhookSecret(row: PipelineRow) {
      return row.webhookSecretSealed ? secrets.open(row.webhookSecretSealed) : null;
    },

    byName: (projectId: string, name: string) => store.byName(projectId, name),
    byIdAnyProject: (id: string) => store.byIdAnyProject(id),
    namesUsingGitAccount: (gitAccountId: string) => store.namesUsingGitAccount(gitAccountId),
  };
}
type z_EnvVar = EnvironmentVariable;
type z_Body = Required<Pick<PipelineBody, 'name' | 'gitAccountId' | 'repositoryUrl'>> &
  Omit<Required<PipelineBody>, 'environmentVariables'> & { environmentVariables: EnvironmentVariable[] };
type z_UpdateBody = Omit<z_Body, 'name'> & Partial<Pick<UpdatePipelineBody, never>>;
export type PipelinesService = ReturnType<typeof createPipelinesService>;
