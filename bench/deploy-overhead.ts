/**
 * Deploy overhead: Quick Deploy of an environment of 5 `terraform_data` resources through the API
 * (POST deploy → UPDATE_COMPLETE heard over the socket, both by a client in a process of its own, as a
 * browser sends and hears them), divided by `terraform apply`
 * of the same generated root module (the resources and their re-exported outputs) run by hand in a shell
 * (timed by the shell around the command, as `time` would), in a directory initialised once beforehand
 * (Gantry keeps each environment's work dir initialised too); its local state file is not sealed, not
 * stored in a database and not sandboxed, which Gantry's run is. Each run changes one
 * input of every resource, so every run really replaces 5 resources. Real Gantry in this process
 * (PGlite), the real terraform CLI, AWS account verified by the STS stand-in.
 * Each Quick Deploy is split at the moments its run publishes (DEPLOYMENT_PHASES): before terraform started
 * in its box, terraform itself, and after it exited until the room heard the end; the table shows each, and
 * terraform's own time in the box against the same apply by hand.
 *   npx tsx bench/deploy-overhead.ts   (BENCH_RUNS, default 5)
 */
import diagnostics from 'node:diagnostics_channel';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { startBenchGantry } from './src/bench-gantry.js';
import { generateRootModule, readModuleInterface, writeRootModule } from '../apps/server/src/integrations/terraform/index.js';
import { startStsStandin } from '@gantry/test-support';
import { fmt, fmtSpread, isMain, spread, table } from './src/load.js';
import { apiCaller, benchProject } from './src/bench-project.js';
import { startRoomWatcher } from './src/room-watcher.js';
import { DEPLOYMENT_PHASES, type DeploymentPhase } from '../apps/server/src/modules/deployments/deployments.jobs.js';

const RESOURCES = 5;
/** The pause before each timed turn. */
const IDLE_BETWEEN_MS = 600;
const vendorModule = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../apps/server/vendor-components/service-config');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchDeployOverhead(runs = Number(process.env.BENCH_RUNS ?? 5)) {
  const sts = await startStsStandin({});
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: 'AKIABENCH',
    AWS_SECRET_ACCESS_KEY: 'bench-secret',
    AWS_REGION: 'eu-central-1',
    AWS_ENDPOINT_URL_STS: sts.url,
  });
  const gantry = await startBenchGantry('deploy');
  const call = apiCaller(gantry.url);
  const manualDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-bench-manual-'));
  // where a Quick Deploy's time goes: its run's moments as the deployment jobs publish them
  const phases = new Map<string, DeploymentPhase[]>();
  const onPhase = (m: unknown) => {
    const p = m as DeploymentPhase;
    phases.set(p.deploymentId, [...(phases.get(p.deploymentId) ?? []), p]);
  };
  diagnostics.subscribe(DEPLOYMENT_PHASES, onPhase);
  let watcher: Awaited<ReturnType<typeof startRoomWatcher>> | undefined;
  try {
    const { idToken, projectId } = await benchProject(call, () => gantry.app.services.mailer.outbox());
    await call(
      'POST',
      `/ms-aws/projects/${projectId}/aws-accounts`,
      { accountName: 'bench', iamRole: 'arn:aws:iam::123456789012:role/Bench', externalId: 'ext' },
      idToken,
    );
    const e = `/ms-engine/projects/${projectId}`;
    const { stageId } = await call(
      'POST',
      `${e}/stages`,
      {
        name: 'bench',
        description: 'bench',
        cloudProvider: 'aws',
        infrastructureAsCodeTool: 'terraform',
        awsAccountId: '123456789012',
        awsRegion: 'eu-central-1',
      },
      idToken,
    );
    const componentId = (await call('GET', `${e}/components`, undefined, idToken)).components.find((c: any) => c.name === 'Service config').id;
    const names = Array.from({ length: RESOURCES }, (_, i) => `svc${i + 1}`);
    const configure = async (run: number) => {
      for (const name of names) {
        const body = { name, componentId, configurations: [{ key: 'service_name', value: `${name}-${run}` }] };
        await call(run === 0 ? 'POST' : 'PUT', run === 0 ? `${e}/stages/${stageId}/resources` : `${e}/stages/${stageId}/resources/${name}`, body, idToken);
      }
    };
    // the end of a run as the web learns it: deployment:update in the project's room, heard by a client in a
    // process of its own (as a browser is), so what the server does after sending it is not counted
    watcher = await startRoomWatcher(gantry.url, idToken, projectId);
    const deploy = async () => {
      const cpu0 = process.cpuUsage();
      // from the member's browser (the watcher's process), as a click on Quick Deploy
      const sentDeploy = await watcher!.post(`${e}/stages/${stageId}/deploy`);
      if (sentDeploy.statusCode !== 202) throw new Error(`deploy: ${sentDeploy.statusCode} ${JSON.stringify(sentDeploy.body)}`);
      const t0 = sentDeploy.sent;
      const { deploymentId } = sentDeploy.body as { deploymentId: string };
      const d = await watcher!.ended(deploymentId);
      const cpu = process.cpuUsage(cpu0);
      if (!d.status.endsWith('COMPLETE')) throw new Error(`deployment failed: ${d.error}`);
      const at = (p: DeploymentPhase['phase']) => phases.get(deploymentId)?.find((x) => x.phase === p)?.at ?? NaN;
      const started = at('engine-started');
      const exited = phases.get(deploymentId)?.findLast((x) => x.phase === 'engine-exited')?.at ?? NaN;
      return {
        total: d.at - t0,
        // the request, its checks and the run's preparation, until terraform is started in its box
        before: started - t0,
        terraform: exited - started,
        // from terraform's exit: the state sealed, the last log lines, the end written and told to the room
        after: d.at - exited,
        // CPU time of this process (Gantry) over the whole Quick Deploy: less swayed by the machine's load than the times
        cpu: (cpu.user + cpu.system) / 1000,
      };
    };
    // each side's turn starts on a machine at rest, as a user's next click would: what the last run left to do in the
    // background (Gantry opens the environment's box for its next run) is done, not timed against the other side
    const idle = () => new Promise((r) => setTimeout(r, IDLE_BETWEEN_MS));
    // warm-up: the first deploy creates (and initialises the work dir), as the manual side's init does
    await configure(0);
    await deploy();

    const source = path.join(manualDir, 'module');
    fs.cpSync(vendorModule, source, { recursive: true, filter: (s) => !s.endsWith('component.json') });
    // timed inside a shell, as `time terraform apply` typed by hand: forking this bench process (Gantry and
    // its PGlite heap, 40–120 ms a fork under load) is no part of the terraform run (Gantry's runs fork a small launcher)
    const terraform = (args: string[]) => {
      const r = spawnSync(
        'bash',
        ['-c', 't0=$EPOCHREALTIME; "$@"; s=$?; echo "$t0 $EPOCHREALTIME" >&3; exit $s', 'bash', process.env.TERRAFORM_BIN ?? 'terraform', ...args],
        {
          cwd: manualDir,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
          env: { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', LC_ALL: 'C' },
        },
      );
      if (r.status !== 0) throw new Error(`terraform ${args[0]}: ${r.stderr}`);
      const [start, end] = String(r.output[3])
        .trim()
        .split(' ')
        .map((t) => t.split('.').map(Number) as [number, number]);
      return (end![0] - start![0]) * 1000 + (end![1] - start![1]) / 1000;
    };
    // the same root module Gantry generates: the resources and each one's outputs re-exported (as the UI shows them)
    const { outputs } = readModuleInterface(source);
    const writeManual = (run: number) =>
      writeRootModule(
        manualDir,
        generateRootModule({
          resources: names.map((name) => ({ name, source, inputs: { service_name: { literal: `${name}-${run}` } } })),
          outputs: Object.fromEntries(names.map((name) => [name, outputs])),
        }),
      );
    writeManual(0);
    terraform(['init', '-input=false', '-no-color']);
    terraform(['apply', '-input=false', '-no-color', '-auto-approve']);

    const gantryMs: number[] = [];
    const manualMs: number[] = [];
    const split = { before: [] as number[], terraform: [] as number[], after: [] as number[], cpu: [] as number[] };
    for (let run = 1; run <= runs; run++) {
      await configure(run);
      await idle();
      const g = await deploy();
      gantryMs.push(g.total);
      split.before.push(g.before);
      split.terraform.push(g.terraform);
      split.after.push(g.after);
      split.cpu.push(g.cpu);
      writeManual(run);
      await idle();
      manualMs.push(terraform(['apply', '-input=false', '-no-color', '-auto-approve']));
    }
    return { runs, gantry: median(gantryMs), manual: median(manualMs), ratio: median(gantryMs) / median(manualMs), gantryMs, manualMs, split };
  } finally {
    diagnostics.unsubscribe(DEPLOYMENT_PHASES, onPhase);
    await watcher?.close();
    await gantry.close();
    await sts.close();
    fs.rmSync(manualDir, { recursive: true, force: true });
  }
}

export function printDeployOverhead(r: Awaited<ReturnType<typeof benchDeployOverhead>>) {
  table([
    { measure: `Quick Deploy of ${RESOURCES} terraform_data resources (median of ${r.runs})`, value: `${fmt(r.gantry, 0)} ms` },
    { measure: 'terraform apply of the same root module by hand (median)', value: `${fmt(r.manual, 0)} ms` },
    { measure: 'overhead ratio (of the medians)', value: fmt(r.ratio, 2) },
    { measure: 'overhead ratio per turn, median (min–max)', value: fmtSpread(spread(r.gantryMs.map((g, i) => g / r.manualMs[i]!)), 2) },
    { measure: '  Quick Deploy: request → terraform started in its box, ms', value: fmtSpread(spread(r.split.before), 1) },
    { measure: '  Quick Deploy: terraform apply in its box, ms', value: fmtSpread(spread(r.split.terraform), 0) },
    { measure: '  Quick Deploy: terraform exited → end heard by the room, ms', value: fmtSpread(spread(r.split.after), 1) },
    { measure: '  Quick Deploy: CPU time of the Gantry process, ms', value: fmtSpread(spread(r.split.cpu), 1) },
    { measure: '  terraform in the box ÷ by hand, per turn', value: fmtSpread(spread(r.split.terraform.map((t, i) => t / r.manualMs[i]!)), 2) },
    {
      measure: '  Gantry around terraform ÷ by hand, per turn',
      value: fmtSpread(spread(r.split.before.map((b, i) => (b + r.split.after[i]!) / r.manualMs[i]!)), 2),
    },
  ]);
}

if (isMain(import.meta.url)) printDeployOverhead(await benchDeployOverhead());
