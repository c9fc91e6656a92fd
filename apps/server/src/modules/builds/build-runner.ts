import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { validatePipelineSpec, resolvePlaceholders, type ParsedSpec } from '@gantry/contracts';
import type { Sandbox } from '../../integrations/executor/sandbox.js';
import { removeTree } from '../../integrations/executor/workspace-files.js';
import type { Realtime } from '../../platform/realtime.js';
import type { ArtifactStore } from '../../platform/artifacts.js';
import { AbortedError } from '../../integrations/executor/local-executor.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { GitAccess } from '../pipelines/git-access.js';
import type { BuildsStore, BuildRow } from './builds.store.js';
import type { BuildsService } from './builds.service.js';
import { createLogSink } from '../../platform/log-sink.js';
import { createMasker } from '../../platform/masking.js';
import { runStep, type StepContext } from './step-handlers.js';
import { settledWithin } from '../../platform/shutdown.js';
import type { RegistriesPort } from '../registries/registries.port.js';

export const logsRoom = (buildId: string, step: string) => `logs:${buildId}:${step}`;
const HEARTBEAT_MS = 2000;
/** A RUNNING build whose worker has not beaten for this long belongs to a dead process. */
export const STALE_AFTER_MS = 20_000;
/** Why a build this server was running when it stopped ended: its steps are not safe to run again by themselves. */
export const INTERRUPTED = 'Interrupted: the Gantry server stopped while this build ran. Trigger it again.';
/** The abort reason of a build ended by the server stopping (any other abort is a user's stop). */
const SERVER_STOPPED = new Error(INTERRUPTED);

export function createBuildRunner(deps: {
  store: BuildsStore;
  builds: BuildsService;
  pipelines: PipelinesService;
  git: GitAccess;
  realtime: Realtime;
  artifacts: ArtifactStore;
  workspaceRoot: string;
  /** Where every step's processes run (DESIGN §5): never on the host with the server's rights, unless the admin said BUILD_SANDBOX=none. */
  sandbox: Sandbox;
  log: FastifyBaseLogger;
  /** The project's registries docker-push steps push to (optional: the step says so when absent). */
  registries?: RegistriesPort;
  /** CONTAINER_SCANNER (docker-push scans the image it built with it). */
  containerScanner?: string;
  /** Told of every build that ended (notifications). */
  onFinished?: (build: BuildRow) => Promise<void>;
}) {
  const { store, builds } = deps;
  const workerId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;

  async function ended(buildId: string) {
    const done = (await store.get(buildId))!;
    builds.publishStatus(done);
    await deps.onFinished?.(done).catch((err) => deps.log.warn({ err, buildId }, 'could not tell about a finished build'));
  }

  async function finish(build: BuildRow, status: BuildRow['status'], errorMessage: string | null) {
    await store.update(build.id, { status, errorMessage, stopDate: new Date(), heartbeatAt: new Date() });
    await ended(build.id);
  }

  async function run(buildId: string) {
    const build = await store.get(buildId);
    if (!build) return;
    if (!(await store.transition(buildId, ['QUEUED', 'SCHEDULING'], { status: 'RUNNING', startDate: new Date(), heartbeatAt: new Date(), workerId }))) return;
    builds.publishStatus({ ...build, status: 'RUNNING' });

    const abort = new AbortController();
    builds.localAborts.set(buildId, abort);
    if (stopping) abort.abort(SERVER_STOPPED);
    const stopReason = () => (abort.signal.reason === SERVER_STOPPED ? INTERRUPTED : 'Stopped by user');
    const heartbeat = setInterval(async () => {
      try {
        await store.update(buildId, { heartbeatAt: new Date() });
        if ((await store.get(buildId))?.abortRequested) abort.abort();
      } catch (err) {
        deps.log.warn({ err, buildId }, 'build heartbeat failed');
      }
    }, HEARTBEAT_MS);
    const workspace = path.join(deps.workspaceRoot, buildId);
    const scriptsDir = `${workspace}.gantry`;
    let outcome: { status: BuildRow['status']; error: string | null } = { status: 'SUCCEEDED', error: null };
    try {
      const pipeline = await deps.pipelines.byIdAnyProject(build.pipelineId);
      if (!pipeline) throw new Error('The pipeline was deleted');
      const { spec } = validatePipelineSpec(build.specYaml ?? '');
      if (!spec) throw new Error('The pipeline spec is not valid');
      const { env: pipelineEnv, masked } = deps.pipelines.variablesForBuild(pipeline);
      const { client, token } = await deps.git.clientFor(build.projectId, pipeline.gitAccountId);
      const platformEnv = {
        GANTRY_PIPELINE_ID: pipeline.id, GANTRY_PIPELINE_NAME: pipeline.name, GANTRY_PIPELINE_EXECUTION_ID: build.id,
        GANTRY_BRANCH: build.branch, GANTRY_COMMIT: build.commitSha ?? '',
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
      for (const dir of [path.join(workspace, 'src'), path.join(workspace, '.home'), scriptsDir]) fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
      deps.sandbox.handOver(workspace);
      const steps = await store.steps(buildId);
      const specSteps = new Map(spec.steps.map((s) => [s.name, s]));

      for (const step of steps) {
        if (abort.signal.aborted) break;
        const specStep = specSteps.get(step.name) as ParsedSpec['steps'][number];
        const sink = createLogSink({
          mask,
          write: (chunk) => store.appendLog([{ buildId, step: step.name, ...chunk }]),
          publish: (chunk) => deps.realtime.toRoom(logsRoom(buildId, step.name), 'logs', { buildId, step: step.name, ...chunk }),
          onWriteError: (err, chunk) => deps.log.error({ err, buildId, step: step.name, seq: chunk.seq }, 'could not store build log lines'),
        });
        if (deps.sandbox.warning) sink.line(deps.sandbox.warning);
        await store.updateStep(buildId, step.name, { status: 'RUNNING', startDate: new Date() });
        builds.publishStatus({ ...build, status: 'RUNNING' });
        const ctx: StepContext = {
          build, pipeline, step: specStep, workspace, scriptsDir, sandbox: deps.sandbox, signal: abort.signal, log: sink.line,
          env: { ...pipelineEnv, ...platformEnv },
          resolve: (text: string) => resolvePlaceholders(text, platformEnv),
          resolveCommand: (text: string) => resolvePlaceholders(text, shellSafePlaceholders(platformEnv)),
          git: { client, token }, artifacts: deps.artifacts, store,
          registries: deps.registries, containerScanner: deps.containerScanner, addSecret,
          warnServer: (message) => deps.log.error({ buildId }, message),
          triggerPipeline: async (name, branch) => {
            const target = await deps.pipelines.byName(build.projectId, name);
            if (!target) throw new Error(`There is no pipeline named ${name} in this project`);
            if (target.id === pipeline.id) throw new Error('A pipeline cannot trigger itself');
            return builds.trigger(build.projectId, target, { branch, trigger: 'pipeline' });
          },
        };
        try {
          await runStep(ctx);
          await sink.flush();
          await store.updateStep(buildId, step.name, { status: 'SUCCEEDED', stopDate: new Date() });
        } catch (err) {
          const aborted = err instanceof AbortedError || abort.signal.aborted;
          const interrupted = aborted && stopReason() === INTERRUPTED;
          const message = aborted ? stopReason() : mask((err as Error).message);
          sink.line(interrupted ? `[gantry] ${INTERRUPTED}` : aborted ? '[gantry] Execution stopped by user' : `[gantry] ${message}`);
          await sink.flush();
          await store.updateStep(buildId, step.name, { status: aborted && !interrupted ? 'ABORTED' : 'FAILED', stopDate: new Date(), errorMessage: message });
          outcome = interrupted ? { status: 'FAILED', error: INTERRUPTED } : aborted ? { status: 'ABORTED', error: 'Stopped by user' } : { status: 'FAILED', error: `Step ${step.name} failed: ${message}` };
          break;
        }
      }
      if (abort.signal.aborted && outcome.status === 'SUCCEEDED') outcome = stopReason() === INTERRUPTED ? { status: 'FAILED', error: INTERRUPTED } : { status: 'ABORTED', error: 'Stopped by user' };
    } catch (err) {
      outcome = { status: 'FAILED', error: (err as Error).message };
    } finally {
      clearInterval(heartbeat);
      builds.localAborts.delete(buildId);
      await removeWorkspace(buildId);
    }
    await finish(build, outcome.status, outcome.error);
  }

  /** Builds left RUNNING by a worker that died, or stuck before their job was queued, end as FAILED with the reason. */
  /** The workspace and scripts of a build (what its steps wrote may be unwritable to itself: removed whole). */
  async function removeWorkspace(buildId: string) {
    const workspace = path.join(deps.workspaceRoot, buildId);
    for (const dir of [workspace, `${workspace}.gantry`]) await removeTree(dir).catch((err) => deps.log.warn({ err, buildId }, 'could not remove a build workspace'));
  }

  async function recover() {
    const stale = await store.stale(new Date(Date.now() - STALE_AFTER_MS));
    for (const b of stale) {
      if (b.workerId === workerId && builds.localAborts.has(b.id)) continue;
      const reason = 'The build was interrupted because the Gantry worker running it stopped. Trigger it again.';
      if (await store.transition(b.id, ['RUNNING'], { status: 'FAILED', stopDate: new Date(), errorMessage: reason })) {
        for (const s of await store.steps(b.id)) {
          if (s.status === 'RUNNING') await store.updateStep(b.id, s.name, { status: 'FAILED', stopDate: new Date(), errorMessage: reason });
        }
        deps.log.warn({ buildId: b.id }, 'marked an interrupted build as failed');
        await removeWorkspace(b.id); // on this host; another host's is swept by its own start
        await ended(b.id);
      }
    }
  }

  /**
   * Starts a just-queued build in this process when a slot is free. The durable pg-boss job stays the
   * source of truth: whichever of the two moves the build from QUEUED first runs it, the other does nothing.
   */
  const running = new Set<Promise<void>>();
  let stopping = false;
  async function runCounted(buildId: string) {
    const work = run(buildId);
    running.add(work);
    try {
      await work;
    } finally {
      running.delete(work);
    }
  }
  function runSoon(buildId: string, slots: number) {
    // once stopping, a queued build is left to its durable job: the next start runs it
    if (stopping || running.size >= slots) return;
    setImmediate(() => void runCounted(buildId).catch((err) => deps.log.error({ err, buildId }, 'build failed to run')));
  }

  /**
   * Ends the builds this process runs, for a server stop: each is aborted and ends FAILED with
   * INTERRUPTED once its log is stored. Waits for them up to `withinMs`; one still running then
   * is failed here with the same reason, while the database is still open.
   */
  async function stop(withinMs: number) {
    stopping = true;
    for (const abort of builds.localAborts.values()) abort.abort(SERVER_STOPPED);
    if (await settledWithin(Promise.allSettled([...running]), withinMs)) return;
    for (const buildId of builds.localAborts.keys()) {
      deps.log.warn({ buildId }, 'a build did not end in time for the server stop');
      if (await store.transition(buildId, ['RUNNING'], { status: 'FAILED', stopDate: new Date(), errorMessage: INTERRUPTED })) {
        for (const s of await store.steps(buildId)) {
          if (s.status === 'RUNNING') await store.updateStep(buildId, s.name, { status: 'FAILED', stopDate: new Date(), errorMessage: INTERRUPTED });
        }
        await ended(buildId);
      }
    }
  }

  return { run: runCounted, runSoon, recover, stop, workerId };
}
export type BuildRunner = ReturnType<typeof createBuildRunner>;

/**
 * Placeholder values for shell commands: a value the shell would read as code (a branch named
 * `feat$(touch${IFS}/tmp/x)`) is put in as a reference to its environment variable instead, which
 * the shell expands as data; plain values (nearly every branch name and id) go in as they are.
 */
export function shellSafePlaceholders(vars: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, /^[\w./@+,:=%-]*$/.test(value) ? value : `\${${name}}`]));
}
