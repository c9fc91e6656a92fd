import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import {
  validatePipelineSpec,
  resolvePlaceholders,
  resolvePlaceholdersDeep,
  placeholderVariables,
  MIC_PLACEHOLDER_ALIASES,
  type ParsedSpec,
} from '@gantry/contracts';
import type { Sandbox } from '../../integrations/executor/sandbox.js';
import { removeTree } from '../../integrations/executor/workspace-files.js';
import { eventsLeave, type Realtime } from '../../platform/realtime.js';
import type { ArtifactStore } from '../../platform/artifacts.js';
import { AbortedError } from '../../integrations/executor/local-executor.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { GitAccess, GitClientForBuilds } from '../pipelines/git-access.js';
import type { BuildsStore, BuildRow, StepRow, StepEnd } from './builds.store.js';
import { stepRowsOf, UUID, type BuildsService } from './builds.service.js';
import { createLogSink, type LogSink } from '../../platform/log-sink.js';
import { createMasker } from '../../platform/masking.js';
import { runStep, stepMounts, type StepContext } from './step-handlers.js';
import { inBuildOrder } from './status-events.js';
import { startBoxRunner, type BoxRunner } from '../../integrations/executor/box-runner.js';
import { createRunKit, stoppedByServer } from '../../platform/run-kit.js';
import { settledWithin } from '../../platform/shutdown.js';
import type { RegistriesPort } from '../registries/registries.port.js';
import type { EnvironmentDeployRequest, EnvironmentDeployResult } from '../../platform/hooks.js';
import type { ServiceDeploys } from './deploy-steps.js';
import { watchBuildTime } from './build-time-limits.js';
import { limitHit, noCgroupWarning, type BoxLimitsPolicy } from '../../integrations/executor/box-limits.js';
import { createRunGroups } from '../../integrations/executor/run-groups.js';

/** A build's last step that succeeded: its end, its last log lines and the build's end are written together. */
type LastStep = { ended: StepEnd; sink: LogSink; started: Promise<unknown> };

export const logsRoom = (buildId: string, step: string) => `logs:${buildId}:${step}`;
/** A RUNNING build whose worker has not beaten for this long belongs to a dead process. */
export const STALE_AFTER_MS = 20_000;
/** Why a build this server was running when it stopped ended: its steps are not safe to run again by themselves. */
export const INTERRUPTED = 'Interrupted: the Gantry server stopped while this build ran. Trigger it again.';
/** Why a build whose worker died (and stopped beating) ended. */
export const WORKER_STOPPED = 'The build was interrupted because the Gantry worker running it stopped. Trigger it again.';
/** A spare box no trigger took for this long is closed (it holds an idle bwrap and, with its own network, a pasta). */
const SPARE_BOX_IDLE_MS = 10 * 60_000;
/** A spare box a trigger took, and whose run never came to it (its insert failed), is closed after this long. */
const SPARE_BOX_TAKEN_MS = 60_000;

/** A step that ended over a limit of its box (box-limits.ts). */
class LimitHit extends Error {}

/** A box opened for the next build this process runs, on the workspace of the id that build will be given. */
type SpareBox = { buildId: string; box: BoxRunner; timer?: NodeJS.Timeout };

export function createBuildsJobs(deps: {
  store: BuildsStore;
  builds: BuildsService;
  pipelines: PipelinesService;
  git: GitAccess;
  realtime: Realtime;
  artifacts: ArtifactStore;
  workspaceRoot: string;
  /** Where every step's processes run (DESIGN §5): never on the host with the server's rights, unless the admin said BUILD_SANDBOX=none. */
  sandbox: Sandbox;
  /**
   * What a build's boxes may use together (box-limits.ts): each build's get a group of their own, sized
   * `normal`, or `bigger` for a project whose plan has biggerRuntimeEnvironments. Absent: no limits (unsandboxed).
   */
  boxLimits?: BoxLimitsPolicy;
  /** A running build is stopped FAILED after this long (build-time-limits.ts). */
  maxDurationMs?: number;
  /** The build minutes a project's plan gives it a month (absent: a running build's minutes are not watched). */
  buildMinutesLimit?: (projectId: string) => Promise<number>;
  log: FastifyBaseLogger;
  /** Builds this process starts itself at once (runSoon), at most. */
  concurrency: number;
  /** The project's registries docker-push steps push to (optional: the step says so when absent). */
  registries?: RegistriesPort;
  /** CONTAINER_SCANNER (docker-push scans the image it built with it). */
  containerScanner?: string;
  /** Where `cache: true` steps keep their dependency folders between builds. */
  cacheRoot: string;
  /** The project's services (Kubernetes deploy steps; optional: the step says so when absent). */
  services?: ServiceDeploys;
  /** Deploys an environment (environment deploy steps), through the deployments module. */
  deployEnvironment: (req: EnvironmentDeployRequest) => Promise<EnvironmentDeployResult>;
  /** Told of every build that ended (notifications). */
  onFinished?: (build: BuildRow) => Promise<void>;
}) {
  const { store, builds } = deps;
  const foldersOf = (buildId: string) => {
    const workspace = path.join(deps.workspaceRoot, buildId);
    return { workspace, scriptsDir: `${workspace}.gantry` };
  };
  /** A build's workspace, its steps' home and its scripts' folder, handed over to the sandbox uid. */
  function makeWorkspace(buildId: string) {
    const { workspace, scriptsDir } = foldersOf(buildId);
    for (const dir of [path.join(workspace, 'src'), path.join(workspace, '.home'), scriptsDir]) fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    deps.sandbox.handOver(workspace);
  }
  /** The groups of the builds' boxes, by build id: made with the build's first box, ended after its last. */
  const groups = createRunGroups(deps.boxLimits, {
    scopeDir: deps.workspaceRoot,
    onError: (err, group) => deps.log.warn({ err, group: group.name }, 'could not remove the group of a build'),
  });
  /** Kills what is left in a build's group and removes it. */
  const endGroup = (buildId: string) => groups.end(groups.live(buildId));
  /** The one box a build's shell steps run in: its workspace writable, its scripts read-only. */
  const openBox = (buildId: string) => {
    const { workspace, scriptsDir } = foldersOf(buildId);
    return startBoxRunner(deps.sandbox, { mounts: stepMounts(workspace, scriptsDir), cwd: workspace, limits: groups.of(buildId) });
  };

  /**
   * The spare box: after a build ran here, a box is opened for the next one (a build's mounts are its own workspace:
   * the box is opened on the workspace of a new build id, which the next build triggered here is inserted with). That
   * build's first step then starts without waiting for bwrap, its network and its runner, and its trigger answers
   * without opening one. Each box is still one build's: what a build's box sees is the same whether it was opened
   * before its trigger or after.
   */
  let spare: SpareBox | undefined;
  /** Spare boxes a trigger took, by the id of its build, until its run takes the box. */
  const takenSpares = new Map<string, SpareBox>();
  let stopping = false;
  const closeSpareBox = (s: SpareBox) => {
    clearTimeout(s.timer);
    afterRun(s.buildId, async () => {
      await s.box.close();
      await endGroup(s.buildId);
      await removeWorkspace(s.buildId);
    });
  };
  function openSpareBox() {
    if (spare || stopping || deps.sandbox.mode !== 'bwrap' || deps.sandbox.unavailable) return;
    const buildId = crypto.randomUUID();
    makeWorkspace(buildId);
    const opened: SpareBox = { buildId, box: openBox(buildId) };
    opened.timer = setTimeout(() => {
      if (spare !== opened) return;
      spare = undefined;
      closeSpareBox(opened);
    }, SPARE_BOX_IDLE_MS).unref();
    spare = opened;
  }
  /** The id the next build triggered here is inserted with, when a spare box was opened for it (then it is that build's). */
  function takeSpareBox(): string | undefined {
    const s = spare;
    spare = undefined;
    if (!s) return undefined;
    clearTimeout(s.timer);
    if (!s.box.open) {
      closeSpareBox(s);
      return undefined;
    }
    takenSpares.set(s.buildId, s);
    s.timer = setTimeout(() => {
      if (takenSpares.delete(s.buildId)) closeSpareBox(s);
    }, SPARE_BOX_TAKEN_MS).unref();
    return s.buildId;
  }
  /** The spare box opened for this build, now its run's. */
  function spareBoxOf(buildId: string) {
    const s = takenSpares.get(buildId);
    if (!s) return undefined;
    takenSpares.delete(buildId);
    clearTimeout(s.timer);
    return s.box;
  }

  async function ended(done: BuildRow) {
    builds.publishStatus(done);
    await eventsLeave();
    await deps.onFinished?.(done).catch((err) => deps.log.warn({ err, buildId: done.id }, 'could not tell about a finished build'));
  }

  /** Writes a build's end (with its last step's, when that step's end is still to be written), then tells it. */
  async function finish(build: BuildRow, status: BuildRow['status'], errorMessage: string | null, last?: LastStep) {
    const values = { status, errorMessage, stopDate: new Date(), heartbeatAt: new Date() };
    let done: BuildRow | undefined;
    if (!last) done = await store.end(build.id, null, values);
    else
      try {
        done = await last.sink.end((chunk, written) => last.started.then(() => store.end(build.id, null, values, { ended: last.ended, chunk }, written)));
      } catch (err) {
        // not written (its rows or its last lines could not be): the step and the build end FAILED with the reason
        const message = (err as Error).message;
        const failed = { name: last.ended.name, status: 'FAILED' as const, stopDate: values.stopDate, errorMessage: message };
        done = await store.end(build.id, null, { ...values, status: 'FAILED', errorMessage: message }, { ended: failed, chunk: null });
      }
    if (done) await ended(done);
  }

  /** Takes a queued build for this worker (compare-and-set on its status). */
  async function claim(buildId: string, workerId: string) {
    const build = await store.transition(buildId, ['QUEUED', 'SCHEDULING'], { status: 'RUNNING', startDate: new Date(), heartbeatAt: new Date(), workerId });
    if (build) builds.publishStatus(build);
    return build;
  }

  /** Runs a claimed build's steps, then writes how it ended. */
  async function execute(claimed: BuildRow, runSignal: AbortSignal) {
    let build = claimed;
    const buildId = build.id;
    // a time limit stops the build as a user's stop or the server's does, with its own reason (FAILED)
    const minutesLimit = deps.buildMinutesLimit;
    const time = watchBuildTime({
      signal: runSignal,
      startedAt: claimed.startDate ?? new Date(),
      maxDurationMs: deps.maxDurationMs,
      minutes: minutesLimit
        ? async () => {
            const [limit, use] = await Promise.all([minutesLimit(claimed.projectId), store.monthUse(claimed.projectId, claimed.createdAt, buildId)]);
            return { limitMs: limit * 60_000, ...use };
          }
        : undefined,
      onError: (err) => deps.log.warn({ err, buildId }, 'could not read the build minutes of a running build'),
    });
    const signal = time.signal;
    /** Why a stop ends the build FAILED (a limit, the server's stop), or undefined: a user's stop (ABORTED). */
    const failedStop = () => time.reason() ?? (stoppedByServer(runSignal) ? INTERRUPTED : undefined);
    const stopReason = () => failedStop() ?? 'Stopped by user';
    const { workspace, scriptsDir } = foldersOf(buildId);
    let outcome: { status: BuildRow['status']; error: string | null } = { status: 'SUCCEEDED', error: null };
    // the last step when it succeeded: its end is written with the build's
    let last: LastStep | undefined;
    // the shell steps share one box (unsandboxed, each runs as a process of its own)
    // (or the spare box opened for it, with its workspace, before its trigger)
    let box: BoxRunner | undefined = spareBoxOf(buildId);
    const shellBox = deps.sandbox.mode === 'bwrap' ? () => (box ??= openBox(buildId)) : undefined;
    // the workspace, and the box when a step may run commands, opened before the first step: the box starts while
    // the run's commit and spec are read and its rows written (a box no step used is closed with the run)
    let opened = !!box;
    // what its trigger in this process read and started resolving (none when another process queued it)
    const here = builds.triggeredHere(buildId);
    // the project's plan sizes the group (made with the normal sizes when its box opened before the plan was read): the
    // plan its trigger here read, else read now
    const sized = groups.size(groups.of(buildId), build.projectId, here?.limits);
    sized.catch(() => undefined); // awaited before the first step
    const openWorkspace = (spec?: ParsedSpec) => {
      if (opened || deps.sandbox.unavailable) return;
      opened = true;
      makeWorkspace(buildId);
      if (!spec || spec.steps.some((s) => s.type === 'build' && s.commands.length)) shellBox?.();
    };
    try {
      const pipeline = here?.pipeline ?? (await deps.pipelines.byIdAnyProject(build.pipelineId));
      if (!pipeline) throw new Error('The pipeline was deleted');
      const gitOf = () => deps.git.clientFor(build.projectId, pipeline.gitAccountId);
      let spec: ParsedSpec | null;
      let git: { client: GitClientForBuilds; token: string };
      let steps: Pick<StepRow, 'name'>[] | undefined;
      // the write that makes the first step RUNNING, when it goes with the run's rows (the step starts meanwhile)
      let firstStarted: Promise<unknown> | undefined;
      if (build.specYaml === null) {
        // nearly every pipeline runs commands: its box starts now rather than after the provider answered
        openWorkspace();
        const r = await (here?.resolution ?? builds.resolveForRun(build, pipeline));
        if (r.errors.length || !r.spec) throw new Error(`The pipeline spec is not valid: ${r.errors.join('; ')}`);
        spec = r.spec;
        openWorkspace(spec);
        const { commit } = r;
        git = r.git;
        const values = {
          commitSha: commit.sha,
          commitMessage: commit.message,
          commitAuthor: commit.author,
          commitAvatar: commit.avatar ?? null,
          specYaml: r.specYaml,
          stages: spec.stages,
        };
        // the first step starts while the run's rows are written, itself RUNNING in them: its log and its end wait for them
        const planned = stepRowsOf(spec).map((s, i) => (i === 0 ? { ...s, status: 'RUNNING' as const, startDate: new Date() } : s));
        const written = store.resolved(buildId, values, planned).then((r) => {
          builds.publishStatus(r.build);
          return r;
        });
        written.catch(() => undefined); // awaited at the first step's end
        firstStarted = written;
        build = { ...build, ...values };
        steps = planned;
      } else {
        spec = validatePipelineSpec(build.specYaml).spec;
        if (!spec) throw new Error('The pipeline spec is not valid');
        openWorkspace(spec);
        git = await gitOf();
      }
      const { client, token } = git;
      const { env: pipelineEnv, masked } = deps.pipelines.variablesForBuild(pipeline);
      const platformEnv = {
        GANTRY_PIPELINE_ID: pipeline.id,
        GANTRY_PIPELINE_NAME: pipeline.name,
        GANTRY_PIPELINE_EXECUTION_ID: build.id,
        GANTRY_BRANCH: build.branch,
        GANTRY_COMMIT: build.commitSha ?? '',
      };
      // the original product's names of the same variables, for specs brought from it
      const micEnv = Object.fromEntries(Object.entries(MIC_PLACEHOLDER_ALIASES).map(([mic, own]) => [mic, platformEnv[own]]));
      const vars = placeholderVariables(platformEnv, pipelineEnv);
      // in a command a pipeline variable is a reference to its environment variable: its value (a secret) is never written in the script
      const commandVars = {
        ...Object.fromEntries(Object.keys(pipelineEnv).map((k) => [k, `\${${k}}`])),
        ...shellSafePlaceholders({ ...platformEnv, ...micEnv }),
      };
      // a step may learn a secret on its way (a registry password): masked from then on, in every later line
      const secrets: string[] = [...masked, token];
      let maskNow = createMasker(secrets);
      const mask = (line: string) => maskNow(line);
      const addSecret = (secret: string) => {
        if (!secret || secrets.includes(secret)) return;
        secrets.push(secret);
        maskNow = createMasker(secrets);
      };
      if (deps.sandbox.unavailable) throw new Error(deps.sandbox.unavailable);
      await sized;
      const group = groups.of(buildId);
      steps ??= await store.steps(buildId);
      const specSteps = new Map(spec.steps.map((s) => [s.name, s]));

      // a step after the first is written RUNNING with the end of the one before it (`movedOn`: that write, or done)
      let movedOn: Promise<unknown> | undefined;
      for (const [i, step] of steps.entries()) {
        if (signal.aborted && !movedOn) break;
        const specStep = specSteps.get(step.name) as ParsedSpec['steps'][number];
        // the step starts while its RUNNING is written; its log chunks and its end are written after that
        const started = movedOn
          ? movedOn
          : i === 0 && firstStarted
            ? firstStarted
            : Promise.resolve(store.updateStep(buildId, step.name, { status: 'RUNNING', startDate: new Date() }));
        started.catch(() => undefined); // awaited at the step's end
        movedOn = undefined;
        const sink = createLogSink({
          mask,
          write: (chunk) => started.then(() => store.appendLog([{ buildId, step: step.name, ...chunk }])),
          publish: (chunk) => deps.realtime.toRoom(logsRoom(buildId, step.name), 'logs', { buildId, step: step.name, ...chunk }, inBuildOrder(buildId)),
          onWriteError: (err, chunk) => deps.log.error({ err, buildId, step: step.name, seq: chunk.seq }, 'could not store build log lines'),
        });
        if (deps.sandbox.warning) sink.line(deps.sandbox.warning);
        // once a build: its boxes run without a group of their own here
        if (i === 0 && group && deps.boxLimits?.cgroups.kind === 'none') sink.line(noCgroupWarning(deps.boxLimits.cgroups.reason, group.limits));
        // the group's events at the step's start, moved past those a step reported itself (limitsReported)
        const eventsBefore = group?.events();
        const ctx: StepContext = {
          build,
          pipeline,
          step: specStep,
          workspace,
          scriptsDir,
          sandbox: deps.sandbox,
          shellBox,
          boxLimits: group,
          limitsReported: (before, after) => {
            if (!eventsBefore) return;
            eventsBefore.oomKills += after.oomKills - before.oomKills;
            eventsBefore.forksRefused += after.forksRefused - before.forksRefused;
          },
          signal: signal,
          log: sink.line,
          env: { ...pipelineEnv, ...platformEnv, ...micEnv },
          resolve: (text: string) => resolvePlaceholders(text, vars),
          resolveValue: (value: unknown) => resolvePlaceholdersDeep(value, vars),
          resolveCommand: (text: string) => resolvePlaceholders(text, commandVars),
          git: { client, token },
          artifacts: deps.artifacts,
          store,
          registries: deps.registries,
          containerScanner: deps.containerScanner,
          addSecret,
          warnServer: (message) => deps.log.error({ buildId }, message),
          cacheRoot: deps.cacheRoot,
          services: deps.services,
          deployEnvironment: deps.deployEnvironment,
          triggerPipeline: async (name, branch) => {
            const target = await deps.pipelines.byName(build.projectId, name);
            if (!target) throw new Error(`There is no pipeline named ${name} in this project`);
            if (target.id === pipeline.id) throw new Error('A pipeline cannot trigger itself');
            return builds.trigger(build.projectId, target, { branch, trigger: 'pipeline' });
          },
        };
        try {
          // written RUNNING with the previous step's end, then stopped before it began
          if (signal.aborted) throw new AbortedError();
          await runStep(ctx);
          // a step that hit a limit fails, whatever its exit code (a fork bomb's step returns at once, its forks refused behind it)
          const hitLimit = group && eventsBefore ? limitHit(eventsBefore, group.events(), group.limits) : null;
          if (hitLimit) throw new LimitHit(hitLimit);
          const ended = { name: step.name, status: 'SUCCEEDED' as const, stopDate: new Date() };
          const next = steps[i + 1];
          if (!next) last = { ended, sink, started };
          else if (signal.aborted) {
            await sink.flush();
            await started;
            await store.updateStep(buildId, step.name, ended);
          } else {
            // the step's end, its last lines and the next step's start, in one statement
            const moved = sink.end((chunk, written) =>
              started.then(() => store.stepsMoved(buildId, ended, { name: next.name, startDate: ended.stopDate }, chunk, written)),
            );
            // a step of commands reads nothing the steps before it wrote: it starts while that statement is written;
            // any other waits for it (a deploy reads the component an earlier step built)
            if (specSteps.get(next.name)?.type === 'build') {
              // should it fail, the next step (started meanwhile) fails with the reason, and this one's end is written on its own
              movedOn = moved.catch(async (err: unknown) => {
                await store.updateStep(buildId, step.name, ended).catch(() => undefined);
                throw err;
              });
              movedOn.catch(() => undefined);
            } else {
              await moved;
              movedOn = moved;
            }
          }
        } catch (err) {
          const aborted = err instanceof AbortedError || signal.aborted;
          const interrupted = aborted && failedStop() !== undefined;
          // a step a limit of its box ended says which (a process killed by the memory limit, a fork refused)
          const hit = err instanceof LimitHit ? null : !aborted && group && eventsBefore ? limitHit(eventsBefore, group.events(), group.limits) : null;
          const message = aborted ? stopReason() : hit ? `${hit} (${mask((err as Error).message)})` : mask((err as Error).message);
          sink.line(interrupted ? `[gantry] ${stopReason()}` : aborted ? '[gantry] Execution stopped by user' : `[gantry] ${message}`);
          await sink.flush();
          await started.catch(() => undefined);
          await store.updateStep(buildId, step.name, { status: aborted && !interrupted ? 'ABORTED' : 'FAILED', stopDate: new Date(), errorMessage: message });
          outcome = interrupted
            ? { status: 'FAILED', error: stopReason() }
            : aborted
              ? { status: 'ABORTED', error: 'Stopped by user' }
              : { status: 'FAILED', error: `Step ${step.name} failed: ${message}` };
          break;
        }
      }
      if (signal.aborted && outcome.status === 'SUCCEEDED')
        outcome = failedStop() !== undefined ? { status: 'FAILED', error: stopReason() } : { status: 'ABORTED', error: 'Stopped by user' };
    } catch (err) {
      outcome = { status: 'FAILED', error: (err as Error).message };
    }
    time.stop();
    // its end is what users wait for: written and told first; the box (only its idle runner is left:
    // a step's processes end with the step) and the workspace go after, without holding the slot
    try {
      await finish(build, outcome.status, outcome.error, last);
    } finally {
      afterRun(buildId, async () => {
        await box?.close();
        await endGroup(buildId);
        await removeWorkspace(buildId);
        openSpareBox();
      });
    }
  }

  // clean-ups still going: a server stop waits for them
  const cleaning = new Set<Promise<void>>();
  function afterRun(buildId: string, work: () => Promise<void>) {
    const p = work()
      .catch((err) => deps.log.warn({ err, buildId }, 'could not clean up after a build'))
      .finally(() => cleaning.delete(p));
    cleaning.add(p);
  }

  /**
   * The workspaces a crash left behind (the process died before removing them): every one whose build
   * has ended or is gone. A build still queued or running (here or in another process) keeps its own;
   * one whose worker died is ended, and its workspace removed, by the recovery.
   */
  async function sweepWorkspaces() {
    const names = await fs.promises.readdir(deps.workspaceRoot).catch(() => [] as string[]);
    const ids = new Set(names.map((n) => n.replace(/\.gantry$/, '')).filter((id) => UUID.test(id)));
    for (const id of [spare?.buildId, ...takenSpares.keys()]) if (id) ids.delete(id);
    if (!ids.size) return;
    for (const b of await store.active()) ids.delete(b.id);
    for (const id of ids) await removeWorkspace(id);
  }

  /** The groups of boxes a crash left behind: every one but those of the spare boxes and of the builds still queued or running. */
  const sweepGroups = () => groups.sweep(async () => (await store.active()).map((b) => b.id));

  /** The workspace and scripts of a build (what its steps wrote may be unwritable to itself: removed whole). */
  async function removeWorkspace(buildId: string) {
    const { workspace, scriptsDir } = foldersOf(buildId);
    for (const dir of [workspace, scriptsDir]) await removeTree(dir).catch((err) => deps.log.warn({ err, buildId }, 'could not remove a build workspace'));
  }

  /**
   * Fails a RUNNING build with the reason (and its running step), then tells about it: a build whose
   * worker died (its workspace on this host removed; another host's is swept by its own start), or one
   * that did not end in time for a server stop.
   */
  async function markFailed(buildId: string, reason: string, recovered?: { run: BuildRow }) {
    const failed = await store.end(buildId, ['RUNNING'], { status: 'FAILED', stopDate: new Date(), errorMessage: reason });
    if (!failed) return false;
    for (const s of await store.steps(buildId)) {
      if (s.status === 'RUNNING') await store.updateStep(buildId, s.name, { status: 'FAILED', stopDate: new Date(), errorMessage: reason });
    }
    if (recovered) {
      deps.log.warn({ buildId }, 'marked an interrupted build as failed');
      await removeWorkspace(buildId);
    }
    await ended(failed);
    return true;
  }

  const kit = createRunKit<BuildRow, BuildRow>({
    name: 'build',
    log: deps.log,
    concurrency: deps.concurrency,
    staleAfterMs: STALE_AFTER_MS,
    staleReason: WORKER_STOPPED,
    interruptedReason: INTERRUPTED,
    store: {
      claim,
      heartbeat: async (ids) => {
        for (const id of ids) await store.update(id, { heartbeatAt: new Date() });
      },
      cancelledAtClaim: (claimed) => claimed.abortRequested,
      cancelRequested: async (ids) => {
        const asked: string[] = [];
        for (const id of ids) if ((await store.get(id))?.abortRequested) asked.push(id);
        return asked;
      },
      staleRuns: (olderThan) => store.stale(olderThan),
      markFailed,
    },
    execute,
  });
  return {
    ...kit,
    /** Recovers now, then on a timer; sweeps what a crash left in the workspaces meanwhile. */
    async start(recoverEveryMs: number) {
      await kit.start(recoverEveryMs);
      afterRun('(sweep)', sweepWorkspaces);
      afterRun('(sweep groups)', sweepGroups);
    },
    takeSpareBox,
    /** The kit's stop, then the clean-ups of the runs that ended (and the spare boxes). */
    async stop(withinMs: number) {
      stopping = true;
      await kit.stop(withinMs);
      for (const s of [spare, ...takenSpares.values()]) if (s) closeSpareBox(s);
      spare = undefined;
      takenSpares.clear();
      await settledWithin(Promise.allSettled([...cleaning]), withinMs);
      if (!cleaning.size) await groups.stop();
    },
  };
}
export type BuildsJobs = ReturnType<typeof createBuildsJobs>;

/**
 * Placeholder values for shell commands: a value the shell would read as code (a branch named
 * `feat$(touch${IFS}/tmp/x)`) is put in as a reference to its environment variable instead, which
 * the shell expands as data; plain values (nearly every branch name and id) go in as they are.
 */
export function shellSafePlaceholders(vars: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, /^[\w./@+,:=%-]*$/.test(value) ? value : `\${${name}}`]));
}
