import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import type { FastifyBaseLogger } from 'fastify';
import { createLogSink, type LogChunk, type LogSink } from '../../platform/log-sink.js';
import { createMasker } from '../../platform/masking.js';
import { eventsLeave, type Realtime } from '../../platform/realtime.js';
import type { StagesApi, StageRow, StageResourceRow } from '../stages/stages.port.js';
import type { DeploymentsStore, DeploymentRow, PlanRow } from './deployments.store.js';
import type { QueuedDeployment, LocalStart } from './deployments.service.js';
import { inDeploymentOrder, type StatusWriter, type StatusWrites } from './status-events.js';
import type { DeployedResource } from './deployments.tables.js';
import { endLeftoverProcess } from './leftover-process.js';
import { createRunKit, createRunPool, hostOfWorker, stoppedByServer } from '../../platform/run-kit.js';
import {
  EngineFailure,
  type DeploymentEngine,
  type EngineOutcome,
  type EngineRun,
  type ErrorLogs,
  type LeftState,
  type PreparedResource,
  type WarmStart,
} from './engine.js';

export const deploymentLogsRoom = (deploymentId: string) => `deployment-logs:${deploymentId}`;
/** A run whose worker has not beaten for this long belongs to a dead process. */
export const STALE_AFTER_MS = 20_000;
/**
 * A run of a worker on another host is left to that host's own sweep for longer: only there can the
 * terraform process it may have left behind be ended (and its state lock released) before the run is failed.
 */
export const OTHER_HOST_STALE_AFTER_MS = 60_000;
/** How long a leftover terraform gets after SIGINT to save its state and release the lock. */
const LEFTOVER_GRACE_MS = 30_000;
/** A queued deployment no worker has taken for this long is failed rather than left waiting forever. */
export const QUEUED_TOO_LONG_MS = 30 * 60_000;
export const CANCELLED = 'Deployment cancelled';
export const WORKER_STOPPED = 'The worker running this deployment stopped; the environment was left as terraform last saved it. Deploy again.';
export const INTERRUPTED =
  'Interrupted: the Gantry server stopped while this deployment ran; the environment was left as terraform last saved it. Deploy again.';
export const PLAN_INTERRUPTED = 'Interrupted: the Gantry server stopped while this plan was created. Create the plan again.';
/** Beside an unpacked version: its outputs (names and sensitivity), as its schema declares them. */
const OUTPUTS_FILE = '.gantry-outputs.json';
/** Unpacked versions whose template name and outputs a worker keeps in memory, at most (the oldest go first). */
const UNPACKED_KEPT_MAX = 1000;
export const PLAN_WORKER_STOPPED = 'The worker creating this plan stopped. Create the plan again.';

/** What a run needs to unpack a resource's component version and read its outputs. */
export interface ComponentFiles {
  extract(projectId: string, componentId: string, versionId: string, dest: string): Promise<{ template: string | null }>;
  outputs(projectId: string, componentId: string, versionId: string): Promise<{ name: string; sensitive: boolean }[]>;
}

type Outcome = 'COMPLETE' | 'FAILED';

/**
 * The moments of a deployment run, for whoever measures where its time goes (bench/deploy-overhead):
 * `running` (its run began here), `engine-started` / `engine-exited` (each engine process, e.g. terraform),
 * `ended` (its end committed and told). Published only while someone subscribes.
 */
export const DEPLOYMENT_PHASES = 'gantry:deployment-phase';
export interface DeploymentPhase {
  deploymentId: string;
  phase: 'running' | 'engine-started' | 'engine-exited' | 'ended';
  /** performance.timeOrigin + performance.now() */
  at: number;
}
const phases = diagnostics.channel(DEPLOYMENT_PHASES);
const phase = (deploymentId: string, p: DeploymentPhase['phase']) => {
  if (phases.hasSubscribers) phases.publish({ deploymentId, phase: p, at: performance.timeOrigin + performance.now() } satisfies DeploymentPhase);
};

/**
 * The status a run shows while it works and when it ends (spec §4; Terraform uses CloudFormation's
 * names): a deploy creates while nothing of the environment is deployed, else it updates.
 */
function statusesFor(kind: DeploymentRow['kind'], anyDeployed: boolean) {
  if (kind === 'UNDEPLOY' || kind === 'UNDEPLOY_RESOURCE') return { running: 'DELETE_IN_PROGRESS', done: 'DELETE_COMPLETE', failed: 'DELETE_FAILED' };
  return anyDeployed
    ? { running: 'UPDATE_IN_PROGRESS', done: 'UPDATE_COMPLETE', failed: 'UPDATE_FAILED' }
    : { running: 'CREATE_IN_PROGRESS', done: 'CREATE_COMPLETE', failed: 'CREATE_FAILED' };
}
/** The end statuses of a run that already started, from the status it runs under. */
const endsOf = (running: string) => {
  const verb = /^(CREATE|UPDATE|DELETE)_IN_PROGRESS$/.exec(running)?.[1];
  return verb ? { done: `${verb}_COMPLETE`, failed: `${verb}_FAILED` } : null;
};

/**
 * Runs deployments and plans as jobs: one environment at a time (the active-deployment index), a
 * heartbeat while running, cancel through the row's flag or the local abort, and recovery of runs
 * whose worker died (FAILED with the reason, never stuck in progress; terraform's own lock is
 * released when its process ends, and a leftover process group of this host is ended).
 */
export function createDeploymentsJobs(deps: {
  store: DeploymentsStore;
  /** Every status write of a run (told to the project room once committed). */
  statuses: StatusWrites;
  stages: StagesApi;
  components: ComponentFiles;
  engineFor: (stage: StageRow) => DeploymentEngine;
  credentialsFor: (stage: StageRow) => Promise<Record<string, string>>;
  realtime: Realtime;
  /** Runs (deployments and plans together) this process starts itself at once (startHere, runPlanSoon), at most. */
  concurrency: number;
  /** `<dataDir>/terraform/modules`: per-run unpacked component versions. */
  modulesRoot: string;
  log: FastifyBaseLogger;
  /** The engine's executable name (`terraform`), to tell a leftover process from a reused pid. */
  processName: string;
  /** Told once a deployment has ended and is written (notifications). */
  onFinished?: (d: { row: DeploymentRow; stage: StageRow; status: string; succeeded: boolean }) => Promise<void>;
}) {
  const { store, stages, statuses } = deps;
  const host = os.hostname();
  // deployments and plans share one pool: one worker id, one concurrency, one stop
  const pool = createRunPool();
  const onThisHost = (id: string | null) => hostOfWorker(id) === host;

  /**
   * Records the engine's pid in order (the writes of one run are chained), for recovery. `clearedAtEnd`: the run's
   * end clears it (a deployment's end writes processId null), so an exit is not written: the next process's pid
   * replaces it, or the end does (recovery checks that a recorded pid still runs terraform before it signals it).
   */
  function pidRecorder(write: (pid: number | null) => Promise<unknown>, o: { clearedAtEnd?: boolean } = {}) {
    let chain: Promise<unknown> = Promise.resolve();
    return {
      onProcess: (pid: number | null) => {
        if (pid === null && o.clearedAtEnd) return;
        chain = chain.then(() => write(pid)).catch((err) => deps.log.warn({ err }, 'recording the engine pid failed'));
      },
      settled: () => chain,
    };
  }

  type Unpacked = { dir: string; template: string | null; outputs: PreparedResource['outputs'] };
  const unpacked = new Map<string, Unpacked>();

  /**
   * A version's files, unpacked once per environment and resource: versions never change, so a
   * stable path lets the engine skip `terraform init` when nothing but values changed. Its outputs
   * are kept beside them for the same reason (the box sees the folder read-only).
   */
  async function unpack(stage: StageRow, r: DeployedResource): Promise<Unpacked> {
    const dir = path.join(deps.modulesRoot, stage.id, r.name, r.componentVersion);
    // read once per process: the folder is the server's (the box sees it read-only) and a version never changes
    const known = unpacked.get(dir);
    if (known && fs.existsSync(dir)) return known;
    const outputsFile = path.join(dir, OUTPUTS_FILE);
    const outputsOf = () => deps.components.outputs(stage.projectId, r.component.id, r.componentVersion);
    if (!fs.existsSync(dir)) {
      const tmp = `${dir}.${crypto.randomBytes(4).toString('hex')}.tmp`;
      const [{ template }, outputs] = await Promise.all([deps.components.extract(stage.projectId, r.component.id, r.componentVersion, tmp), outputsOf()]);
      fs.writeFileSync(path.join(tmp, '.gantry-template'), template ?? '');
      fs.writeFileSync(path.join(tmp, OUTPUTS_FILE), JSON.stringify(outputs));
      await fs.promises.rename(tmp, dir).catch(async (err) => {
        await fs.promises.rm(tmp, { recursive: true, force: true });
        if (!fs.existsSync(dir)) throw err; // another run unpacked the same version first
      });
    } else if (!fs.existsSync(outputsFile)) {
      // unpacked by a Gantry that kept no outputs there
      const tmp = `${outputsFile}.${crypto.randomBytes(4).toString('hex')}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(await outputsOf()));
      await fs.promises.rename(tmp, outputsFile);
    }
    const [template, outputs] = await Promise.all([
      fs.promises.readFile(path.join(dir, '.gantry-template'), 'utf8'),
      fs.promises.readFile(outputsFile, 'utf8'),
    ]);
    const read = { dir, template: template || null, outputs: JSON.parse(outputs) as PreparedResource['outputs'] };
    if (unpacked.size >= UNPACKED_KEPT_MAX) unpacked.delete(unpacked.keys().next().value!);
    unpacked.set(dir, read);
    return read;
  }

  /** Unpacks each resource's version and opens its sealed inputs (`rows`: the environment's resources, read at the claim). */
  async function prepare(
    stage: StageRow,
    resources: DeployedResource[],
    resourceRows?: StageResourceRow[],
  ): Promise<{ prepared: PreparedResource[]; secrets: string[] }> {
    const rows = new Map((resourceRows ?? (await stages.resourceRows(stage.id))).map((r) => [r.name, r]));
    const secrets: string[] = [];
    const prepared = await Promise.all(
      resources.map(async (r): Promise<PreparedResource> => {
        const row = rows.get(r.name);
        if (!row) throw new Error(`The resource ${r.name} was removed from the environment`);
        const inputs = row.configurations.map((c) => {
          if (!c.sensitive || c.reference) return { key: c.key, value: c.value, reference: c.reference, sensitive: false };
          const value = stages.openSecret(String(c.value));
          secrets.push(value);
          return { key: c.key, value, reference: false, sensitive: true };
        });
        const { dir, template, outputs } = await unpack(stage, r);
        return {
          name: r.name,
          componentId: r.component.id,
          componentName: r.component.name,
          versionId: r.componentVersion,
          version: r.version,
          dir,
          template,
          inputs,
          outputs,
        };
      }),
    );
    return { prepared, secrets };
  }

  /** A run's log: masked, chunked, stored and fanned out live to the deployment's room. */
  function sinkFor(deploymentId: string, mask: (line: string) => string) {
    return createLogSink({
      mask,
      write: (c) => store.appendLog([{ deploymentId, ...c }]),
      publish: (c) => deps.realtime.toRoom(deploymentLogsRoom(deploymentId), 'logs', { deploymentId, ...c }, inDeploymentOrder(deploymentId)),
      onWriteError: (err, c) => deps.log.error({ err, deploymentId, seq: c.seq }, 'could not store deployment log lines'),
    });
  }

  /**
   * What is deployed after a run (as the engine told when it saved its state, else as it finds it now), and
   * each resource's status from it and its status before (written in finish's transaction).
   */
  async function resourceStatuses(stage: StageRow, row: DeploymentRow, outcome: Outcome, saved?: string[]) {
    const deployed = new Set(
      saved ??
        (await deps
          .engineFor(stage)
          .deployedResources(stage)
          .catch(() => [] as string[])),
    );
    const undeploying = row.kind === 'UNDEPLOY' || row.kind === 'UNDEPLOY_RESOURCE';
    const touched = (name: string) => row.kind !== 'UNDEPLOY_RESOURCE' || name === row.resourceName;
    const statusOf = (name: string, isDeployed: boolean, previous: string) => {
      if (!touched(name)) return isDeployed ? previous : 'NOT_DEPLOYED';
      if (isDeployed)
        return outcome === 'COMPLETE' || !undeploying
          ? previous === 'NOT_DEPLOYED' || previous === 'DELETE_COMPLETE'
            ? 'CREATE_COMPLETE'
            : 'UPDATE_COMPLETE'
          : 'DELETE_FAILED';
      return undeploying ? 'DELETE_COMPLETE' : outcome === 'FAILED' ? 'CREATE_FAILED' : 'NOT_DEPLOYED';
    };
    return { deployed, statusOf };
  }

  /** A queued deployment, its environment and resources, as a worker that did not queue it reads them. */
  async function load(deploymentId: string): Promise<QueuedDeployment | undefined> {
    const row = await store.get(deploymentId);
    if (!row || !row.active || row.startedAt) return undefined;
    const stage = await stages.rowById(row.stageId);
    if (!stage) return undefined;
    return { row, stage, resources: await stages.resourceRows(stage.id) };
  }

  /** Takes a queued deployment for this worker (compare-and-set: active and not started yet); the environment shows it running. */
  async function claim(deploymentId: string, workerId: string) {
    const queued = await load(deploymentId);
    if (!queued) return undefined;
    const { row, stage, resources } = queued;
    const st = statusesFor(
      row.kind,
      resources.some((r) => r.isDeployed),
    );
    const claimed = await statuses.write(async (w) => {
      const taken = await w.claim(row.id, { status: st.running, startedAt: new Date(), heartbeatAt: new Date(), workerId });
      if (taken && row.kind !== 'UNDEPLOY_RESOURCE') await w.stage(stage.id, { status: st.running });
      return taken;
    });
    return claimed ? { row: claimed, stage, st, resources } : undefined;
  }
  /** A claimed run; `warm`: what its engine started for it while its request was still answered (startHere). */
  type Claimed = NonNullable<Awaited<ReturnType<typeof claim>>> & { warm?: WarmStart } & Pick<QueuedDeployment, 'sealedState' | 'shown'>;

  /** Runs a claimed deployment with its engine, then writes how it ended. */
  async function execute({ row, stage, st, resources, warm: warmed, sealedState, shown }: Claimed, signal: AbortSignal) {
    let outcome: Outcome = 'COMPLETE';
    let error: string | null = null;
    let reported: EngineOutcome | undefined;
    let left: LeftState | undefined;
    // the run's secrets, once known, are masked in its log and in the error it ends with (the deployment's answer)
    let mask = createMasker([]);
    let sink = sinkFor(row.id, mask);
    phase(row.id, 'running');
    const recorder = pidRecorder((pid) => store.update(row.id, { processId: pid }), { clearedAtEnd: true });
    const pids = {
      ...recorder,
      onProcess: (pid: number | null) => {
        phase(row.id, pid === null ? 'engine-exited' : 'engine-started');
        recorder.onProcess(pid);
      },
    };
    let warm = warmed;
    try {
      const engine = deps.engineFor(stage);
      warm ??= engine.warmUp?.(stage); // terraform's box opens while the run prepares
      // independent: the cloud session (an STS call for AWS) while the versions are unpacked
      const [credentials, { prepared, secrets }] = await Promise.all([deps.credentialsFor(stage), prepare(stage, row.resources, resources)]);
      mask = createMasker([...Object.values(credentials), ...secrets]);
      sink = sinkFor(row.id, mask);
      const engineRun: EngineRun = {
        warm,
        sealedState,
        stage,
        resources: prepared,
        credentials,
        log: sink.line,
        signal,
        onProcess: pids.onProcess,
        onStateLeft: (state) => {
          left = state;
        },
        onStatus: (status) =>
          statuses.write(async (w) => {
            await w.deployment(row.id, { status });
            if (row.kind !== 'UNDEPLOY_RESOURCE') await w.stage(stage.id, { status });
          }),
      };
      sink.line(
        `[gantry] ${row.kind === 'UNDEPLOY' ? 'Undeploying' : row.kind === 'UNDEPLOY_RESOURCE' ? `Undeploying ${row.resourceName}` : 'Deploying'} ${stage.name} (${prepared.length} resource${prepared.length === 1 ? '' : 's'})`,
      );
      if (row.kind === 'DEPLOY') reported = (await engine.deploy(engineRun)) ?? undefined;
      else if (row.kind === 'PLAN_APPLY') {
        const plan = row.planId ? await store.planById(row.planId) : undefined;
        if (!plan?.planFile || !engine.applyPlan) throw new Error('The plan of this deployment is no longer available; create a new plan');
        await engine.applyPlan(engineRun, plan.planFile);
        await statuses.write((w) => w.plan(plan.id, { status: 'APPLIED' }));
      } else reported = (await engine.undeploy(engineRun, row.kind === 'UNDEPLOY_RESOURCE' ? (row.resourceName ?? undefined) : undefined)) ?? undefined;
      sink.line(`[gantry] ${st.done}`);
    } catch (err) {
      outcome = 'FAILED';
      if (err instanceof EngineFailure) reported = { status: err.status, logs: err.logs };
      const stopped = stoppedByServer(signal) ? INTERRUPTED : CANCELLED;
      error = signal.aborted ? stopped : mask((err as Error).message);
      sink.line(`[gantry] ${signal.aborted ? stopped : `Failed: ${error}`}`);
    } finally {
      await warm?.close();
      await pids.settled();
    }
    // the state the run left and its log's last lines are written with its end (the resources' statuses from theirs
    // when it began: while it ran, only it wrote them)
    await shown; // never before its request's write of the environment (which does not throw)
    await finish(stage, { ...row, status: st.running }, outcome, error, reported, left, { before: resources, sink });
  }

  /**
   * Writes how a run ended; `left`: the state its engine left, stored here (its plain copies removed once committed);
   * `run`: its resources as it read them when it began, and its log, whose last lines go with the end.
   */
  async function finish(
    stage: StageRow,
    row: DeploymentRow,
    outcome: Outcome,
    error: string | null,
    reported?: { status: string; logs?: ErrorLogs },
    left?: LeftState,
    run?: { before: StageResourceRow[]; sink: LogSink },
  ) {
    const st =
      endsOf(row.status) ??
      statusesFor(
        row.kind,
        (await stages.resourceRows(stage.id)).some((r) => r.isDeployed),
      );
    const status = reported?.status ?? (outcome === 'COMPLETE' ? st.done : st.failed);
    const { deployed, statusOf } = await resourceStatuses(stage, row, outcome, left?.deployed);
    const stageValues =
      row.kind === 'UNDEPLOY_RESOURCE'
        ? // the environment stays deployed while other resources are; it is DELETE_COMPLETE once none is
          !deployed.size && outcome === 'COMPLETE'
          ? { status: 'DELETE_COMPLETE', currentDeploymentId: row.id }
          : {}
        : {
            status,
            // a completed undeploy is what stands now: the deploy before it is no longer the current one
            ...(outcome === 'COMPLETE' ? { currentDeploymentId: row.id, ...(row.kind !== 'UNDEPLOY' ? { lastDeployed: new Date() } : {}) } : {}),
          };
    const ended = { status, error, active: false, processId: null, finishedAt: new Date(), ...(reported?.logs ? { logs: reported.logs } : {}) };
    // one transaction of two statements: the resources with the environment, and the run's end with the plans it made
    // stale (any run may have changed the state: stored plans no longer describe it), the state it left and its last log
    // lines (the environment is free for the next run only with everything else written). The last lines are published
    // once it committed, before the end is told (a client may leave the log's room once it hears the end).
    const write = (chunk: LogChunk | null, committed?: () => void) =>
      statuses.write(
        async (w: StatusWriter) => {
          await w.resources(stage.id, deployed, statusOf, stageValues, run?.before);
          return w.ended(row.id, ended, { stageId: stage.id, sealed: left?.sealed, chunk });
        },
        { committed },
      );
    let unstored: LogChunk | null = null;
    const expired = run
      ? await run.sink
          .end(async (chunk, written) => {
            unstored = chunk;
            const plans = await write(chunk, written);
            unstored = null;
            return plans;
          })
          .catch(async (err: unknown) => {
            // the end was not written: its last lines are kept on their own
            const chunk = unstored as LogChunk | null;
            if (chunk) await store.appendLog([{ deploymentId: row.id, ...chunk }]).catch(() => undefined);
            throw err;
          })
      : await write(null);
    phase(row.id, 'ended');
    left?.stored();
    for (const p of expired) if (p.planFile) await fs.promises.rm(p.planFile, { force: true }).catch(() => undefined);
    await eventsLeave();
    await deps
      .onFinished?.({ row, stage, status, succeeded: outcome === 'COMPLETE' })
      .catch((err) => deps.log.error({ err, deploymentId: row.id }, 'could not tell that a deployment ended'));
  }

  /** Takes a CREATING plan for this worker (compare-and-set on its worker). */
  async function claimPlan(planId: string, workerId: string) {
    const plan = await store.planById(planId);
    if (!plan) return undefined;
    const stage = await stages.rowById(plan.stageId);
    if (!stage || !(await store.claimPlan(plan.id, workerId))) return undefined;
    return { plan, stage };
  }

  async function executePlan({ plan, stage }: { plan: PlanRow; stage: StageRow }, signal: AbortSignal) {
    const pids = pidRecorder((pid) => store.updatePlan(plan.id, { processId: pid }));
    let warm: WarmStart | undefined;
    let mask = createMasker([]);
    try {
      const engine = deps.engineFor(stage);
      if (!engine.plan) throw new Error('This engine makes no plans');
      warm = engine.warmUp?.(stage);
      const [credentials, { prepared, secrets }] = await Promise.all([deps.credentialsFor(stage), prepare(stage, plan.resources)]);
      const lines: string[] = [];
      mask = createMasker([...Object.values(credentials), ...secrets]);
      const made = await engine.plan({
        warm,
        stage,
        resources: prepared,
        credentials,
        log: (l) => {
          lines.push(mask(l));
          if (lines.length > 200) lines.shift();
        },
        signal,
        onProcess: pids.onProcess,
      });
      const byName = new Map(plan.resources.map((r) => [r.name, r]));
      await statuses.write((w) =>
        w.plan(plan.id, {
          status: 'READY',
          planFile: made.planFile,
          summary: made.summary,
          changes: made.changes.map((c) => {
            const r = byName.get(c.resourceName);
            return { ...c, componentId: r?.component.id ?? null, name: r?.component.name ?? null, version: r?.version ?? null };
          }),
        }),
      );
    } catch (err) {
      await statuses.write((w) => w.plan(plan.id, { status: 'FAILED', error: stoppedByServer(signal) ? PLAN_INTERRUPTED : mask((err as Error).message) }));
    } finally {
      await warm?.close();
      await pids.settled();
    }
  }

  /** Ends what a dead worker of this host left running (another host's sweep ends its own). */
  async function endLeftover(workerOf: string | null, pid: number | null) {
    if (!pid || !onThisHost(workerOf)) return;
    if (await endLeftoverProcess(pid, deps.processName, LEFTOVER_GRACE_MS)) deps.log.warn({ pid }, 'ended a terraform process left by a stopped worker');
  }

  async function appendLine(deploymentId: string, text: string) {
    const last = (await store.logs(deploymentId)).at(-1);
    const chunk = { seq: (last?.seq ?? -1) + 1, text };
    await store.appendLog([{ deploymentId, ...chunk }]);
    deps.realtime.toRoom(deploymentLogsRoom(deploymentId), 'logs', { deploymentId, ...chunk }, inDeploymentOrder(deploymentId));
  }

  /**
   * A run whose worker died ends FAILED with the reason. The terraform process such a worker left on
   * this host is ended first (SIGINT: it saves the state and releases the lock), so the next run finds
   * the state free. The claim refreshes the heartbeat: another process sweeping finds it no longer stale.
   */
  async function failStale(d: DeploymentRow, reason: string, olderThan: Date) {
    const stage = await stages.rowById(d.stageId);
    if (!stage || !(await store.claimStale(d.id, olderThan))) return false;
    deps.log.warn({ deploymentId: d.id }, 'marking an interrupted deployment as failed');
    await endLeftover(d.workerId, d.processId);
    if (onThisHost(d.workerId))
      await deps
        .engineFor(stage)
        .recoverState?.(stage)
        .catch((err) => deps.log.error({ err, stageId: stage.id }, 'could not seal the state a stopped worker left'));
    await appendLine(d.id, `[gantry] ${reason}`);
    await finish(stage, d, 'FAILED', reason);
    return true;
  }

  async function failStalePlan(p: PlanRow, reason: string, olderThan: Date) {
    if (!(await store.claimStalePlan(p.id, olderThan))) return false;
    await endLeftover(p.workerId, p.processId);
    await statuses.write((w) => w.plan(p.id, { status: 'FAILED', processId: null, error: reason }));
    return true;
  }

  const common = {
    log: deps.log,
    concurrency: deps.concurrency,
    pool,
    staleAfterMs: STALE_AFTER_MS,
    otherHostStaleAfterMs: OTHER_HOST_STALE_AFTER_MS,
    lateOnStop: 'leave' as const,
  };
  /**
   * At a server stop terraform gets its SIGINT (it saves the state and releases the lock) and each run
   * ends failed with INTERRUPTED; a run still going after the wait is left to the next start's recovery,
   * which ends its terraform and fails it.
   */
  const deploymentRuns = createRunKit<Claimed, DeploymentRow>({
    ...common,
    name: 'deployment',
    staleReason: WORKER_STOPPED,
    interruptedReason: INTERRUPTED,
    store: {
      claim,
      heartbeat: async (ids) => {
        for (const id of ids) await store.update(id, { heartbeatAt: new Date() });
      },
      cancelRequested: async (ids) => {
        const asked: string[] = [];
        for (const id of ids) if ((await store.get(id))?.cancelRequested) asked.push(id);
        return asked;
      },
      cancelledAtClaim: (claimed) => claimed.row.cancelRequested,
      // running ones whose worker stopped beating, and queued ones no worker took for too long
      staleRuns: (olderThan) => store.stale(olderThan, new Date(Date.now() - QUEUED_TOO_LONG_MS)),
      // only recovery fails a run here (lateOnStop 'leave')
      markFailed: async (_id, reason, recovered) => recovered && failStale(recovered.run, reason, recovered.olderThan),
    },
    execute,
  });
  const planRuns = createRunKit({
    ...common,
    name: 'plan',
    staleReason: PLAN_WORKER_STOPPED,
    interruptedReason: PLAN_INTERRUPTED,
    store: {
      claim: claimPlan,
      heartbeat: async (ids) => {
        for (const id of ids) await store.updatePlan(id, { heartbeatAt: new Date() });
      },
      // a plan no worker took yet is stale only once queued for too long
      staleRuns: async (olderThan) => (await store.stalePlans(olderThan)).filter((p) => p.workerId || Date.now() - p.createdAt.getTime() >= QUEUED_TOO_LONG_MS),
      markFailed: async (_id, reason, recovered) => recovered && failStalePlan(recovered.run, reason, recovered.olderThan),
    },
    execute: executePlan,
  });

  /**
   * A slot to run a deployment of `stage` here as its request queues it: the row is inserted with `claim`'s values
   * (claimed by this worker, running), and `start` runs it with what the request read; no second claim and no
   * durable job. The engine warms up for it at once (terraform's box opens while the request is still answered).
   * Undefined when no slot is free (it is queued for any worker then).
   */
  function startHere(stage: StageRow): LocalStart | undefined {
    const slot = deploymentRuns.reserve();
    if (!slot) return undefined;
    let warm: WarmStart | undefined;
    try {
      warm = deps.engineFor(stage).warmUp?.(stage);
    } catch (err) {
      slot.release();
      throw err;
    }
    let started = false;
    return {
      claim: (kind, anyDeployed) => {
        const now = new Date();
        return { status: statusesFor(kind, anyDeployed).running, startedAt: now, heartbeatAt: now, workerId: slot.workerId };
      },
      start: ({ row, stage: queuedStage, resources, sealedState, shown }) => {
        started = true;
        slot.start(row.id, {
          row,
          stage: queuedStage,
          resources,
          sealedState,
          shown,
          st: statusesFor(
            row.kind,
            resources.some((r) => r.isDeployed),
          ),
          warm,
        });
      },
      release: () => {
        if (!started) void warm?.close();
        slot.release();
      },
    };
  }

  return {
    run: deploymentRuns.run,
    runPlan: planRuns.run,
    startHere,
    /** Starts a just-created plan here when a slot is free; whichever of this and the pg-boss job claims it first runs it. */
    runPlanSoon: (planId: string) => planRuns.runSoon(planId),
    /** A user's cancel of a deployment this process runs. */
    cancel: deploymentRuns.cancel,
    /** Runs and plans whose worker died end FAILED with the reason. */
    recover: async () => {
      await deploymentRuns.recover();
      await planRuns.recover();
    },
    /** Recovers now, then every `recoverEveryMs` (deployments, then plans). */
    start: async (recoverEveryMs: number) => {
      await deploymentRuns.start(recoverEveryMs);
      await planRuns.start(recoverEveryMs);
    },
    /** Ends the runs of this process for a server stop (no more recovery sweeps), waiting up to `withinMs`. */
    stop: async (withinMs: number) => {
      await Promise.all([deploymentRuns.stop(withinMs), planRuns.stop(withinMs)]);
    },
    workerId: pool.workerId,
  };
}
export type DeploymentsJobs = ReturnType<typeof createDeploymentsJobs>;
