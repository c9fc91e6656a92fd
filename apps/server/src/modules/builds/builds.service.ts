import {
  executionPlan,
  isBuildActive,
  branchNameProblem,
  branchMatches,
  filesMatch,
  BRANCH_NAME_MESSAGE,
  type Build,
  type GitProvider,
  type BuildStep,
  type Artifact,
  type ParsedSpec,
  type TimelineEvent,
  type Limitations,
  TIMELINE_SOURCE_LIMIT,
} from '@gantry/contracts';
import type { Jobs } from '../../platform/jobs.js';
import type { RunSlot } from '../../platform/run-kit.js';
import type { Realtime } from '../../platform/realtime.js';
import type { ArtifactStore } from '../../platform/artifacts.js';
import { Conflict, NotFound, Validation, Upstream, Unauthorized } from '../../platform/errors.js';
import type { BillingService } from '../billing/billing.port.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { PipelineRow } from '../pipelines/pipelines.store.js';
import type { GitAccess, GitClientForBuilds } from '../pipelines/git-access.js';
import { readRepoSpec } from '../pipelines/git-access.js';
import { validateSpecOffThread } from '../pipelines/spec-validation.js';
import type { BuildsStore, BuildRow, StepRow, ArtifactRow } from './builds.store.js';
import { runningMs } from './build-time-limits.js';
import { inBuildOrder } from './status-events.js';

export const BUILD_QUEUE = 'build.run';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (d: Date | null) => d?.toISOString() ?? null;

/** A valid spec's steps as build step rows, in the order they run. */
export function stepRowsOf(spec: ParsedSpec) {
  let position = 0;
  return executionPlan(spec).flatMap((group) =>
    group.steps.map((s) => ({ name: s.name, title: s.title ?? null, stage: s.stage, type: s.type, position: position++ })),
  );
}

export function toArtifact(a: ArtifactRow): Artifact {
  return { id: a.id, kind: a.kind, name: a.name, location: a.location, files: a.files, size: a.size };
}

export function toBuild(b: BuildRow, pipelineName: string, steps: StepRow[] = [], artifacts: ArtifactRow[] = []): Build {
  return {
    id: b.id,
    number: b.number,
    name: pipelineName,
    pipelineId: b.pipelineId,
    status: b.status,
    branch: b.branch,
    startDate: iso(b.startDate),
    stopDate: iso(b.stopDate),
    createdAt: b.createdAt.toISOString(),
    errorMessage: b.errorMessage,
    trigger: b.trigger,
    metadata: {
      commit: b.commitSha
        ? { name: b.commitSha, message: b.commitMessage ?? '', version: b.commitSha.slice(0, 7), user: { name: b.commitAuthor ?? '', avatar: b.commitAvatar } }
        : null,
    },
    stages: b.stages.map((name) => ({ name })),
    steps: steps.map((s): BuildStep => ({
      name: s.name,
      title: s.title,
      stage: s.stage,
      type: s.type,
      status: s.status,
      startDate: iso(s.startDate),
      stopDate: iso(s.stopDate),
      errorMessage: s.errorMessage,
      reports: s.reports ?? null,
      artifacts: artifacts.filter((a) => a.step === s.name).map(toArtifact),
    })),
  };
}

/** How long a push delivery id is remembered; providers redeliver within hours, not weeks. */
export const WEBHOOK_DELIVERY_MEMORY_MS = 30 * 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 3600 * 1000;
const MAX_DELIVERY_ID_LENGTH = 200;

/** The header each provider puts its delivery's unique id in (the same id on a redelivery). */
const DELIVERY_ID_HEADERS: Record<GitProvider, string> = {
  github: 'x-github-delivery',
  gitlab: 'x-gitlab-event-uuid',
  bitbucket: 'x-request-uuid',
};

type Headers = Record<string, string | string[] | undefined>;

/** The provider's delivery id of a webhook call, or null when it carries none usable. */
export function deliveryIdOf(provider: GitProvider, headers: Headers): string | null {
  const raw = headers[DELIVERY_ID_HEADERS[provider]];
  const id = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return id && id.length <= MAX_DELIVERY_ID_LENGTH && !id.includes('\u0000') ? id : null;
}

export type PushOutcome = { triggered: boolean; buildId: string | null; reason: string | null; duplicate?: true };

export type Resolution = {
  commit: NonNullable<TriggerOptions['commit']>;
  specYaml: string;
  errors: string[];
  spec: ParsedSpec | null;
  /** The git account's client it was read with (the run's steps use it too). */
  git: { client: GitClientForBuilds; token: string };
};

/** What a trigger in this process read and started resolving, for the build's local run. */
/** What the trigger of a build read (its pipeline, its project's plan as its minutes were checked) and started resolving. */
export type TriggeredHere = { pipeline: PipelineRow; resolution: Promise<Resolution>; limits: Limitations };

export interface TriggerOptions {
  branch: string;
  trigger: 'manual' | 'webhook' | 'pipeline';
  userId?: string | null;
  commit?: { sha: string; message: string; author: string; avatar?: string | null };
}

export function createBuildsService(deps: {
  store: BuildsStore;
  jobs: Jobs;
  realtime: Realtime;
  artifacts: ArtifactStore;
  billing: BillingService;
  pipelines: PipelinesService;
  git: GitAccess;
  /** The interrupted-build recovery (builds.jobs'). */
  recover: () => Promise<void>;
  /** Aborts a build this process runs (a user's stop; other workers see the row's flag). */
  abortLocal?: (buildId: string) => void;
  /**
   * A slot of this process's worker, when one is free: the build is inserted claimed by it and runs here
   * from its trigger on (no claim, no durable job; a crash before its end leaves a build whose worker
   * stopped beating, which the recovery fails). Without one it is queued for any worker.
   */
  startHere?: () => RunSlot<BuildRow> | undefined;
  /** The id of a build whose box this process opened ahead (builds.jobs' spare box), for a build started here; now that build's. */
  spareBuildId?: () => string | undefined;
}) {
  const { store, jobs, billing } = deps;

  async function pipelineOf(projectId: string, pipelineId: string) {
    return deps.pipelines.get(projectId, pipelineId);
  }

  async function buildOf(projectId: string, pipelineId: string, buildId: string) {
    const b = /^\d{1,9}$/.test(buildId)
      ? await store.byNumber(projectId, pipelineId, Number(buildId))
      : UUID.test(buildId)
        ? await store.byId(projectId, pipelineId, buildId)
        : undefined;
    if (!b) throw new NotFound('Build not found');
    return b;
  }

  const publishStatus = (b: BuildRow) =>
    deps.realtime.toProject(b.projectId, 'build:update', { pipelineId: b.pipelineId, buildId: b.id, status: b.status }, inBuildOrder(b.id));

  /** The month's build minutes so far: the ended builds' time and the running ones' until now (a trigger's check, the usage shown). */
  async function usedBuildMinutes(projectId: string) {
    const now = new Date();
    const { usedMs, othersStarted } = await store.monthUse(projectId, now);
    return (usedMs + runningMs(othersStarted, now.getTime())) / 60_000;
  }

  // The spec file of a pipeline at a commit, as read before (a sha names one content; an unreadable file is not kept).
  const specs = new Map<string, string>();
  async function specAtCommit(pipeline: PipelineRow, sha: string, read: () => Promise<string | null>) {
    const key = `${pipeline.id}\n${pipeline.gitAccountId}\n${pipeline.repositoryFullName}\n${pipeline.workDir}\n${sha}`;
    const kept = specs.get(key);
    if (kept !== undefined) return kept;
    const text = await read();
    if (text !== null) {
      if (specs.size >= 500) specs.delete(specs.keys().next().value!);
      specs.set(key, text);
    }
    return text;
  }

  /** The commit of the branch (unless a push named it) and the pipeline's spec at that commit, validated. */
  async function resolve(projectId: string, pipeline: PipelineRow, branch: string, given?: TriggerOptions['commit']) {
    const { client, token } = await deps.git.clientFor(projectId, pipeline.gitAccountId);
    const commit =
      given ??
      (await client.getCommit(token, pipeline.repositoryFullName, branch).catch((err: Error) => {
        throw new Upstream(`Could not read branch ${branch} of ${pipeline.repositoryFullName}: ${err.message}`);
      }));
    const fromRepo = await specAtCommit(
      pipeline,
      commit.sha,
      async () => (await readRepoSpec({ client, token }, pipeline.repositoryFullName, commit.sha, pipeline.workDir))?.text ?? null,
    );
    const specYaml = fromRepo ?? pipeline.specYaml ?? (await deps.pipelines.spec(projectId, pipeline.id)).gantryYaml;
    const { errors, spec } = await validateSpecOffThread(specYaml);
    return { commit, specYaml, errors, spec, git: { client, token } };
  }

  // what triggers in this process read and started resolving, for the local run to take (bounded: a run elsewhere reads anew)
  const triggered = new Map<string, TriggeredHere>();
  function keepTriggered(buildId: string, kept: TriggeredHere) {
    if (triggered.size >= 200) triggered.delete(triggered.keys().next().value!);
    triggered.set(buildId, kept);
  }

  let lastPrune = 0;
  async function pruneDeliveries() {
    lastPrune = Date.now();
    await store.pruneDeliveries(new Date(Date.now() - WEBHOOK_DELIVERY_MEMORY_MS));
  }
  const pruneDeliveriesNowAndThen = async () => {
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) await pruneDeliveries();
  };

  type Push = ReturnType<GitClientForBuilds['parsePush']>;
  async function handlePush(pipeline: PipelineRow, push: Push, git: { client: GitClientForBuilds; token: string }): Promise<PushOutcome> {
    const skip = (reason: string): PushOutcome => ({ triggered: false, buildId: null, reason });
    if (!push) return skip('Not a push event');
    const branchProblem = branchNameProblem(push.branch);
    if (branchProblem) return skip(`Ignored: ${BRANCH_NAME_MESSAGE} (${branchProblem})`);
    if (!pipeline.automatedTrigger) return skip('Automated trigger is off');
    if (!branchMatches(pipeline.branchFilter, push.branch)) return skip(`Branch ${push.branch} does not match ${pipeline.branchFilter}`);
    let changed = push.changedFiles;
    if (!push.changedFilesComplete && git.client.changedFiles) {
      changed = await git.client.changedFiles(git.token, pipeline.repositoryFullName, push.before, push.sha).catch(() => changed);
    }
    if (!filesMatch(pipeline.modifiedFiles, changed)) return skip('No changed file matches the modified-files filter');
    const build = await api.trigger(pipeline.projectId, pipeline, {
      branch: push.branch,
      trigger: 'webhook',
      commit: { sha: push.sha, message: push.message, author: push.author },
    });
    return { triggered: true, buildId: build.id, reason: null };
  }

  const api = {
    publishStatus,

    /**
     * Records the build at once, answering before the provider is asked anything: claimed by this
     * process and started when a slot of its worker is free (the commit of the branch and the spec file
     * at it are resolved meanwhile, and the run takes the result), else queued for any worker (which
     * resolves them itself). A spec that cannot be
     * read or is not valid fails the build with the reason.
     */
    async trigger(projectId: string, pipeline: PipelineRow, o: TriggerOptions) {
      const branchProblem = branchNameProblem(o.branch);
      if (branchProblem) throw new Validation(`${BRANCH_NAME_MESSAGE}: ${branchProblem}`, { ref: [branchProblem] });
      const slot = deps.startHere?.();
      try {
        // started now for the run of this process to take; a run elsewhere resolves for itself
        const resolution = slot ? resolve(projectId, pipeline, o.branch, o.commit) : null;
        resolution?.catch(() => undefined); // the run reports it
        // the plan's limit and the month's minutes are read side by side
        const limits = await billing.assertWithinLimit(projectId, 'buildMinutes', usedBuildMinutes(projectId).then(Math.floor), 1);
        const now = new Date();
        const id = slot ? deps.spareBuildId?.() : undefined;
        const build = await store.insertWithSteps(
          {
            ...(id ? { id } : {}),
            projectId,
            pipelineId: pipeline.id,
            branch: o.branch,
            ...(o.commit
              ? { commitSha: o.commit.sha, commitMessage: o.commit.message, commitAuthor: o.commit.author, commitAvatar: o.commit.avatar ?? null }
              : {}),
            trigger: o.trigger,
            triggeredBy: o.userId ?? null,
            ...(slot ? { status: 'RUNNING' as const, startDate: now, heartbeatAt: now, workerId: slot.workerId } : { status: 'QUEUED' as const }),
          },
          [],
        );
        if (resolution) keepTriggered(build.id, { pipeline, resolution, limits });
        publishStatus(build);
        if (slot) slot.start(build.id, build);
        // the durable job is there for any worker
        else await jobs.send(BUILD_QUEUE, { buildId: build.id }, { expireInSeconds: 4 * 3600, retryLimit: 0 });
        return build;
      } finally {
        slot?.release(); // not inserted after all (a no-op once started)
      }
    },

    /**
     * What the trigger of a claimed build read (its pipeline) and started resolving (its commit and spec),
     * when it was triggered in this process: taken once, by its run.
     */
    triggeredHere(buildId: string): TriggeredHere | undefined {
      const kept = triggered.get(buildId);
      triggered.delete(buildId);
      return kept;
    },

    /** The commit and spec of a claimed build that has none yet, asked of the provider now (a build queued by another process). */
    async resolveForRun(build: BuildRow, pipeline: PipelineRow): Promise<Resolution> {
      const commit = build.commitSha
        ? { sha: build.commitSha, message: build.commitMessage ?? '', author: build.commitAuthor ?? '', avatar: build.commitAvatar }
        : undefined;
      return resolve(build.projectId, pipeline, build.branch, commit);
    },

    /**
     * A provider's push webhook: verified with the pipeline's own secret, taken once per delivery id
     * (a replayed delivery starts nothing), then filtered by branch name, branch filter and files.
     */
    async receivePush(pipelineId: string, headers: Headers, rawBody: string): Promise<PushOutcome> {
      const pipeline = await deps.pipelines.byIdAnyProject(pipelineId);
      const secret = pipeline && deps.pipelines.webhookSecret(pipeline);
      if (!pipeline || !secret) throw new NotFound('Pipeline not found');
      const { client, token, account } = await deps.git.clientFor(pipeline.projectId, pipeline.gitAccountId);
      let push;
      try {
        push = client.parsePush(headers, rawBody, secret);
      } catch {
        throw new Unauthorized('Webhook signature does not match', 'InvalidSignature');
      }
      const deliveryId = deliveryIdOf(account.type, headers);
      if (deliveryId) {
        await pruneDeliveriesNowAndThen();
        if (!(await store.takeDelivery({ provider: account.type, deliveryId, pipelineId: pipeline.id }))) {
          return { triggered: false, buildId: null, reason: `Duplicate delivery ${deliveryId}: already received, nothing started`, duplicate: true };
        }
      }
      try {
        return await handlePush(pipeline, push, { client, token });
      } catch (err) {
        if (deliveryId) await store.releaseDelivery(account.type, deliveryId);
        throw err;
      }
    },

    /** Forgets push deliveries older than WEBHOOK_DELIVERY_MEMORY_MS. */
    pruneWebhookDeliveries: () => pruneDeliveries(),

    async list(projectId: string, pipelineId: string, page: { limit: number; offset: number; cursor?: string; search?: string }): Promise<Build[]> {
      const pipeline = await pipelineOf(projectId, pipelineId);
      const rows = await store.page(pipelineId, { ...page, search: page.search?.trim() || undefined });
      const ids = rows.map((r) => r.id);
      // with their artifacts: the Builds tab's Reports column counts them (as the pipelines list does its latest build's)
      const [steps, artifacts] = await Promise.all([store.stepsFor(ids), store.artifacts(ids)]);
      return rows.map((r) =>
        toBuild(
          r,
          pipeline.name,
          steps.filter((s) => s.buildId === r.id),
          artifacts.filter((a) => a.buildId === r.id),
        ),
      );
    },

    async get(projectId: string, pipelineId: string, buildId: string): Promise<Build> {
      const pipeline = await pipelineOf(projectId, pipelineId);
      const b = await buildOf(projectId, pipelineId, buildId);
      return toBuild(b, pipeline.name, await store.steps(b.id), await store.artifacts([b.id]));
    },

    /** Queued builds end at once; a running one is told to stop (here, or through the database on another worker). */
    async stop(projectId: string, pipelineId: string, buildId: string) {
      const b = await buildOf(projectId, pipelineId, buildId);
      if (!isBuildActive(b.status)) throw new Conflict(`The build is already ${b.status}`);
      const aborted = await store.end(b.id, ['SCHEDULING', 'QUEUED'], { status: 'ABORTED', stopDate: new Date(), errorMessage: 'Stopped by user' });
      if (aborted) {
        publishStatus(aborted);
        return;
      }
      await store.update(b.id, { abortRequested: true });
      deps.abortLocal?.(b.id);
    },

    async metrics(projectId: string, pipelineId?: string) {
      if (pipelineId) await pipelineOf(projectId, pipelineId);
      return store.metrics(projectId, pipelineId);
    },

    async limitations(projectId: string) {
      const limits = await billing.limitations(projectId);
      return { buildMinutes: Number(limits.buildMinutes ?? 0), usedBuildMinutes: Number((await usedBuildMinutes(projectId)).toFixed(2)) };
    },

    async logs(projectId: string, pipelineId: string, buildId: string, step: string) {
      const b = await buildOf(projectId, pipelineId, buildId);
      return { buildId: b.id, step, chunks: await store.logs(b.id, step) };
    },

    async artifactFile(projectId: string, pipelineId: string, buildId: string, artifactId: string) {
      const b = await buildOf(projectId, pipelineId, buildId);
      const a = await store.artifact(b.id, artifactId);
      const stream = a && (await deps.artifacts.get(a.location));
      if (!a || !stream) throw new NotFound('Artifact not found');
      return { artifact: a, stream };
    },

    /** Runs the interrupted-build recovery now (the jobs also run it on a timer). */
    recoverNow: () => deps.recover(),
    async timeline(projectId: string, type?: string): Promise<TimelineEvent[]> {
      if (type && type.toLowerCase() !== 'build') return [];
      return (await store.recent(projectId, TIMELINE_SOURCE_LIMIT)).map(({ b, pipelineName }) => ({
        type: 'build',
        projectId,
        status: b.status,
        timestamp: (b.stopDate ?? b.startDate ?? b.createdAt).toISOString(),
        buildId: b.id,
        buildNumber: b.number,
        pipelineName,
        pipelineId: b.pipelineId,
      }));
    },

    buildOf,
  };
  return api;
}
export type BuildsService = ReturnType<typeof createBuildsService>;
