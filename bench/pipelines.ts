/**
 * Pipeline overhead and live-log throughput, against a real Gantry (in this process, PGlite) and the
 * git provider stand-in (real repositories over HTTP, in a process of its own as a provider is):
 *  - overhead: trigger → SUCCEEDED of a 3-step pipeline of short commands, divided by running the same
 *    commands with bash directly (3 bash processes, one per step, started from a small process as from a
 *    user's shell), the two taking turns;
 *  - trigger → first step running (its startDate), p95 over the same runs;
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

const STEP_COMMANDS = [
  ['echo compile', 'ls -la > /dev/null', 'echo compiled'],
  ['echo test', 'date > /dev/null'],
  ['echo package', 'uname -a > /dev/null'],
];
const overheadSpec = `steps:\n${STEP_COMMANDS.map((cmds, i) => `  Step${i + 1}:\n    commands:\n${cmds.map((c) => `      - ${c}`).join('\n')}\n`).join('')}`;
const logSpec = `steps:\n  Noisy:\n    commands:\n      - seq 1 100000\n`;

export async function benchPipelines(runs = Number(process.env.BENCH_RUNS ?? 10)) {
  const standin = await startStandinProcess();
  await standin.createRepo('bench/overhead', { 'gantry.yaml': overheadSpec });
  await standin.createRepo('bench/logs', { 'gantry.yaml': logSpec });
  const gantry = await startBenchGantry('pipes', {
    ...standin.env,
  });
  const base = gantry.url;
  let socket: ReturnType<typeof ioClient> | undefined;
  let bashChild: ReturnType<typeof fork> | undefined;
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
    // bash runs from a small process, as from a user's shell (a fork of this one costs what its memory costs)
    bashChild = fork(new URL('./src/bash-child.mjs', import.meta.url), [], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const bash = (scripts: string[]) =>
      new Promise<number>((resolve) => {
        bashChild!.once('message', (ms) => resolve(ms as number));
        bashChild!.send(scripts);
      });
    const logsId = await pipeline('logs', 'bench/logs');

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

    // overhead: Gantry and bash take turns, so both see the same machine load
    const gantryMs: number[] = [];
    const bashMs: number[] = [];
    const firstStepMs: number[] = [];
    const answerMs: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      const triggeredAt = Date.now();
      const t0 = performance.now();
      const buildId = await trigger(overheadId);
      const answeredAt = performance.now();
      const status = await new Promise<string>((resolve) => {
        finished.set(buildId, resolve);
        void call('GET', `${p}/pipelines/${overheadId}/builds/${buildId}`, undefined, idToken).then(
          (b) => ['SUCCEEDED', 'FAILED'].includes(b.status) && resolve(b.status),
        );
      });
      if (status !== 'SUCCEEDED') throw new Error(`overhead build ${status}`);
      if (i === 0) continue; // the first run warms caches
      gantryMs.push(performance.now() - t0);
      answerMs.push(answeredAt - t0);
      const done = await call('GET', `${p}/pipelines/${overheadId}/builds/${buildId}`, undefined, idToken);
      firstStepMs.push(Date.parse(done.steps[0].startDate) - triggeredAt);
      // Gantry removes the build's box and workspace after telling its end: done before bash's turn, so the two never overlap
      const workspace = path.join(gantry.dataDir, 'workspaces', buildId);
      while (fs.existsSync(workspace) || fs.existsSync(`${workspace}.gantry`)) await new Promise((r) => setTimeout(r, 1));
      bashMs.push(await bash(STEP_COMMANDS.map((cmds) => cmds.join('\n'))));
    }
    const ratios = gantryMs.map((g, i) => g / bashMs[i]!);
    if (process.env.BENCH_RAW) console.log('RAW', JSON.stringify({ ratios, gantryMs, bashMs, firstStepMs }));

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
      overhead: { gantryMs: spread(gantryMs), bashMs: spread(bashMs), ratio: spread(ratios) },
      answer: { ms: spread(answerMs) },
      firstStep: { p95Ms: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!, ms: spread(firstStepMs) },
      logs: { lastLineMs: lastLineAt - stepStart, stepMs, ratio: (lastLineAt - stepStart) / stepMs, seqAloneMs: seqAlone },
    };
  } finally {
    bashChild?.kill();
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
    { measure: 'trigger request → its answer (build id), median (min–max)', value: `${fmtSpread(r.answer.ms)} ms` },
    { measure: 'trigger → first step running, p95', value: `${fmt(r.firstStep.p95Ms)} ms` },
    { measure: 'trigger → first step running, median (min–max)', value: `${fmtSpread(r.firstStep.ms)} ms` },
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
