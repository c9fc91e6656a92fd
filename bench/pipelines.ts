/**
 * Pipeline overhead and live-log throughput, against a real Gantry (in this process, PGlite) and the
 * git provider stand-in (real repositories over HTTP, in a process of its own as a provider is):
 *  - overhead: trigger → SUCCEEDED of a 3-step pipeline of short commands, divided by running the same
 *    commands with bash directly (3 bash processes, one per step), both from a small process of their own
 *    as from a user's shell and browser (the trigger over HTTP, the end heard on a websocket), taking turns;
 *  - where that time goes as seen from outside: the trigger's answer, trigger → first step running (its
 *    startDate; p95 too), each step's start → stop as Gantry recorded it, the gaps between steps, the last
 *    step's stop → SUCCEEDED heard;
 *  - the floor: the same commands as three steps in an empty build box of the same kind started from the
 *    launcher (the least a sandboxed run can cost), taking turns with the two others;
 *  - logs: a step printing 100,000 lines — from the step's start until the last line reaches a websocket
 *    client, divided by the time the step itself takes (its start → stop).
 *   npx tsx bench/pipelines.ts   (BENCH_RUNS: triggers of the overhead pipeline, default 10; BENCH_RAW=1 also prints each turn)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fork, spawnSync } from 'node:child_process';
import { io as ioClient } from 'socket.io-client';
import { startBenchGantry } from './src/bench-gantry.js';
import { startStandinProcess } from './src/standin-process.js';
import { fmt, fmtSpread, isMain, spread, table } from './src/load.js';
import { apiCaller, benchProject } from './src/bench-project.js';
import { createSandbox } from '../apps/server/src/integrations/executor/sandbox.js';
import { startBoxRunner } from '../apps/server/src/integrations/executor/box-runner.js';
import { SANDBOX_PATH, stepMounts } from '../apps/server/src/modules/builds/step-handlers.js';
import { DEFAULT_BOX_LIMITS, detectCgroups } from '../apps/server/src/integrations/executor/box-limits.js';

const STEP_COMMANDS = [
  ['echo compile', 'ls -la > /dev/null', 'echo compiled'],
  ['echo test', 'date > /dev/null'],
  ['echo package', 'uname -a > /dev/null'],
];
const overheadSpec = `steps:\n${STEP_COMMANDS.map((cmds, i) => `  Step${i + 1}:\n    commands:\n${cmds.map((c) => `      - ${c}`).join('\n')}\n`).join('')}`;
const logSpec = `steps:\n  Noisy:\n    commands:\n      - seq 1 100000\n`;

/** Asks the user's process (src/user-child.mjs) to do something, and answers what it answered. */
function userSide(child: ReturnType<typeof fork>) {
  let nextId = 0;
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  child.on('message', (m: { id: number; ok: boolean; value?: unknown; message?: string }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.ok) p?.resolve(m.value);
    else p?.reject(new Error(m.message));
  });
  return (type: string, args: object): Promise<any> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ id, type, ...args });
    });
}

/**
 * The physical limit of running the steps sandboxed: a build box of the same kind as Gantry's (the same
 * sandbox, mounts and runner, spawned by the launcher) started empty, and the same commands run in it
 * as three steps — no database, no provider, no websocket.
 */
async function boxFloor(dataDir: string) {
  // as a worker's: with a network of its own, one made ready beforehand (its pool) when one is
  const sandbox = createSandbox({ mode: 'bwrap', hidden: [dataDir], network: process.env.GANTRY_BOX_NETWORK === 'host' ? 'host' : 'box', networkPool: true });
  sandbox.warmNetwork();
  if (sandbox.unavailable) throw new Error(sandbox.unavailable);
  const workspace = path.join(dataDir, 'workspaces', 'bench-floor');
  const scriptsDir = `${workspace}.gantry`;
  for (const dir of [path.join(workspace, '.home'), scriptsDir]) fs.mkdirSync(dir, { recursive: true });
  sandbox.handOver(workspace);
  const scripts = STEP_COMMANDS.map((cmds, i) => {
    const file = path.join(scriptsDir, `Step${i + 1}.sh`);
    fs.writeFileSync(file, cmds.join('\n'));
    return file;
  });
  const env = { PATH: SANDBOX_PATH, HOME: path.join(workspace, '.home'), TMPDIR: '/tmp', LANG: 'C.UTF-8', TERM: 'dumb', CI: 'true' };
  const signal = new AbortController().signal;
  // as a worker's box, in a cgroup of its own made for it (BENCH_BOX_CGROUP=none: without, as before the limits)
  const cgroups = process.env.BENCH_BOX_CGROUP === 'none' ? undefined : detectCgroups();
  let n = 0;
  return {
    async run() {
      const t0 = performance.now();
      const group = cgroups?.group(`bench-floor-${process.pid}-${n++}`, DEFAULT_BOX_LIMITS);
      const box = startBoxRunner(sandbox, { mounts: stepMounts(workspace, scriptsDir), cwd: workspace, limits: group });
      for (const script of scripts) {
        const code = await box.run(script, { cwd: workspace, env, signal, onLine: () => undefined });
        if (code !== 0) throw new Error(`floor step exited with ${code}`);
      }
      const ms = performance.now() - t0;
      await box.close();
      await group?.end();
      return ms;
    },
    close: () => {
      sandbox.close();
      cgroups?.close();
      return fs.promises.rm(workspace, { recursive: true, force: true }).then(() => fs.promises.rm(scriptsDir, { recursive: true, force: true }));
    },
  };
}

export async function benchPipelines(runs = Number(process.env.BENCH_RUNS ?? 10)) {
  const standin = await startStandinProcess();
  await standin.createRepo('bench/overhead', { 'gantry.yaml': overheadSpec });
  await standin.createRepo('bench/logs', { 'gantry.yaml': logSpec });
  const gantry = await startBenchGantry('pipes', {
    ...standin.env,
    // GANTRY_BOX_NETWORK=host measures the boxes on the host's network (the floor below follows it)
    ...(process.env.GANTRY_BOX_NETWORK ? { GANTRY_BOX_NETWORK: process.env.GANTRY_BOX_NETWORK } : {}),
  });
  const base = gantry.url;
  let socket: ReturnType<typeof ioClient> | undefined;
  let userChild: ReturnType<typeof fork> | undefined;
  const call = apiCaller(base);
  try {
    const { idToken, projectId } = await benchProject(call, () => gantry.app.services.mailer.outbox());
    const p = `/ms-ap/projects/${projectId}`;
    const { gitAccountId } = await call('POST', `${p}/git-accounts`, { code: await standin.issueCode('github'), type: 'github' }, idToken);
    const repos = (await call('GET', `${p}/git-accounts/${gitAccountId}/repositories`, undefined, idToken)).repositories;
    const pipeline = async (name: string, repo: string) =>
      (
        await call(
          'POST',
          `${p}/pipelines`,
          { name, gitAccountId, repositoryUrl: repos.find((r: any) => r.fullName === repo).url, branchFilter: 'main', automatedTrigger: false },
          idToken,
        )
      ).pipelineId as string;
    const overheadId = await pipeline('overhead', 'bench/overhead');
    // the provider's own answer to the read every trigger waits for (the branch's commit), timed as a client sees it
    const commitUrl = `${standin.env.GITHUB_API_URL}/repos/bench/overhead/commits/main`;
    const providerToken = await standin.accessToken();
    const logsId = await pipeline('logs', 'bench/logs');
    // the user triggers, listens and runs bash from a small process of its own, as from a shell and a browser
    userChild = fork(new URL('./src/user-child.mjs', import.meta.url), [], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const user = userSide(userChild);
    await user('connect', { base, idToken, projectId });
    const floor = await boxFloor(gantry.dataDir);

    socket = ioClient(base, { path: '/ms-realtime/websockets/', query: { Authorization: idToken }, transports: ['websocket'] });
    await new Promise<void>((r) => socket!.on('connect', () => r()));
    await socket.emitWithAck('project:join', projectId);
    const finished = new Map<string, (status: string) => void>();
    socket.on('build:update', (e: { buildId: string; status: string }) => {
      if (['SUCCEEDED', 'FAILED', 'ABORTED'].includes(e.status)) finished.get(e.buildId)?.(e.status);
    });
    const trigger = async (pipelineId: string) => {
      const { buildId } = await call('POST', `${p}/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' }, idToken);
      return buildId as string;
    };

    // overhead: Gantry, bash and the empty box take turns, so all see the same machine load
    const gantryMs: number[] = [];
    const bashMs: number[] = [];
    const floorMs: number[] = [];
    const firstStepMs: number[] = [];
    const answerMs: number[] = [];
    // as Gantry recorded them (ms): each step's start → stop, the gaps between steps, the last stop → the end heard
    const stepsMs: number[][] = STEP_COMMANDS.map(() => []);
    const betweenMs: number[] = [];
    const endHeardMs: number[] = [];
    const providerMs: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      const run = await user('trigger', { url: `${base}${p}/pipelines/${overheadId}/builds`, idToken });
      if (run.status !== 'SUCCEEDED') throw new Error(`overhead build ${run.status}`);
      // Gantry removes the build's box and workspace after telling its end: done before the others' turns, so they never overlap
      const workspace = path.join(gantry.dataDir, 'workspaces', run.buildId);
      while (fs.existsSync(workspace) || fs.existsSync(`${workspace}.gantry`)) await new Promise((r) => setTimeout(r, 1));
      // then opens a box for the next build (a spare): let it settle too
      await new Promise((r) => setTimeout(r, 100));
      if (i === 0) continue; // the first run warms caches
      gantryMs.push(run.ms);
      answerMs.push(run.answerMs);
      const done = await call('GET', `${p}/pipelines/${overheadId}/builds/${run.buildId}`, undefined, idToken);
      const steps = (done.steps as { startDate: string; stopDate: string }[]).map((s) => ({ start: Date.parse(s.startDate), stop: Date.parse(s.stopDate) }));
      firstStepMs.push(steps[0]!.start - run.triggeredAt);
      steps.forEach((s, n) => stepsMs[n]!.push(s.stop - s.start));
      betweenMs.push(steps.slice(1).reduce((sum, s, n) => sum + s.start - steps[n]!.stop, 0));
      endHeardMs.push(run.heardAt - steps.at(-1)!.stop);
      bashMs.push((await user('bash', { scripts: STEP_COMMANDS.map((cmds) => cmds.join('\n')) })).ms);
      providerMs.push((await user('get', { url: commitUrl, token: providerToken })).ms);
      floorMs.push(await floor.run());
    }
    await floor.close();
    const ratios = gantryMs.map((g, i) => g / bashMs[i]!);
    const ownRatios = gantryMs.map((g, i) => (g - providerMs[i]!) / bashMs[i]!);
    const floorRatios = floorMs.map((f, i) => f / bashMs[i]!);
    if (process.env.BENCH_RAW)
      console.log('RAW', JSON.stringify({ ratios, floorRatios, gantryMs, bashMs, floorMs, answerMs, firstStepMs, stepsMs, betweenMs, endHeardMs }));

    // log throughput
    const logsBuild = await trigger(logsId);
    let lastLineAt = 0;
    const got = new Promise<void>((resolve) => {
      socket!.on('logs', (c: { text: string }) => {
        if (c.text.endsWith('\n100000') || c.text === '100000') {
          lastLineAt = Date.now();
          resolve();
        }
      });
    });
    await socket.emitWithAck('logs:subscribe', { projectId, pipelineId: logsId, buildId: logsBuild, step: 'Noisy', type: 'pipeline' });
    await got;
    await new Promise<string>((resolve) => {
      finished.set(logsBuild, resolve);
      void call('GET', `${p}/pipelines/${logsId}/builds/${logsBuild}`, undefined, idToken).then((b) => b.status === 'SUCCEEDED' && resolve(b.status));
    });
    const build = await call('GET', `${p}/pipelines/${logsId}/builds/${logsBuild}`, undefined, idToken);
    const step = build.steps[0];
    const stepStart = Date.parse(step.startDate);
    const stepMs = Date.parse(step.stopDate) - stepStart;
    const seqAlone = (() => {
      const t0 = performance.now();
      spawnSync('bash', ['-c', 'seq 1 100000'], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
      return performance.now() - t0;
    })();
    socket.close();

    const sorted = [...firstStepMs].sort((a, b) => a - b);
    return {
      overhead: { gantryMs: spread(gantryMs), bashMs: spread(bashMs), ratio: spread(ratios), providerMs: spread(providerMs), ownRatio: spread(ownRatios) },
      floor: { ms: spread(floorMs), ratio: spread(floorRatios) },
      phases: { steps: stepsMs.map(spread), between: spread(betweenMs), endHeard: spread(endHeardMs) },
      answer: { ms: spread(answerMs) },
      firstStep: { p95Ms: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!, ms: spread(firstStepMs) },
      logs: { lastLineMs: lastLineAt - stepStart, stepMs, ratio: (lastLineAt - stepStart) / stepMs, seqAloneMs: seqAlone },
    };
  } finally {
    userChild?.kill();
    socket?.close();
    await gantry.close();
    await standin.close();
  }
}

export function printPipelines(r: Awaited<ReturnType<typeof benchPipelines>>) {
  table([
    { measure: '3-step pipeline, trigger → SUCCEEDED, median (min–max)', value: `${fmtSpread(r.overhead.gantryMs)} ms` },
    { measure: 'same commands with bash directly', value: `${fmtSpread(r.overhead.bashMs, 1)} ms` },
    { measure: 'overhead ratio (per turn)', value: fmtSpread(r.overhead.ratio, 2) },
    { measure: "  the provider's answer to the commit read a trigger waits for", value: `${fmtSpread(r.overhead.providerMs, 1)} ms` },
    { measure: '  overhead ratio without that answer (per turn)', value: fmtSpread(r.overhead.ownRatio, 2) },
    { measure: 'trigger request → its answer (build id), median (min–max)', value: `${fmtSpread(r.answer.ms)} ms` },
    { measure: 'trigger → first step running, p95', value: `${fmt(r.firstStep.p95Ms)} ms` },
    { measure: 'trigger → first step running, median (min–max)', value: `${fmtSpread(r.firstStep.ms)} ms` },
    ...r.phases.steps.map((s, n) => ({ measure: `  step ${n + 1}, start → stop as Gantry recorded it`, value: `${fmtSpread(s)} ms` })),
    { measure: '  between the steps (one step stopped → the next started), summed', value: `${fmtSpread(r.phases.between)} ms` },
    { measure: '  last step stopped → SUCCEEDED heard on the websocket', value: `${fmtSpread(r.phases.endHeard)} ms` },
    { measure: 'floor: an empty build box from the launcher + the same 3 steps in it', value: `${fmtSpread(r.floor.ms, 1)} ms` },
    { measure: 'floor ratio (per turn, ÷ bash): the least a sandboxed run can cost', value: fmtSpread(r.floor.ratio, 2) },
    { measure: '100,000-line step: step start → last line on the websocket', value: `${fmt(r.logs.lastLineMs)} ms` },
    { measure: '100,000-line step: step start → stop', value: `${fmt(r.logs.stepMs)} ms` },
    { measure: 'log ratio (last line / step time)', value: fmt(r.logs.ratio, 2) },
    { measure: 'seq 1 100000 alone', value: `${fmt(r.logs.seqAloneMs, 1)} ms` },
  ]);
}

if (isMain(import.meta.url)) {
  printPipelines(await benchPipelines());
  process.exit(0);
}
