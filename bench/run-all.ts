/**
 * Every benchmark, one after the other, then one table of every line of the performance budget
 * (issue 14) with its median and min–max (`npm run bench`). Not part of `npm test`: numbers depend on
 * the machine (2 cores here); compare runs on the same machine only.
 */
import os from 'node:os';
import { benchColdStart, printColdStart } from './cold-start.js';
import { benchProjectLists, printProjectList } from './project-list.js';
import { benchPipelines, printPipelines } from './pipelines.js';
import { benchDeployOverhead, printDeployOverhead } from './deploy-overhead.js';
import { benchSandbox, printSandbox } from './sandbox.js';
import { benchDockerPush, printDockerPush } from './docker-push.js';
import { benchWebBundle, printWebBundle } from './web-bundle.js';
import { benchAllLists, printLists, worstGrowth, worstList, worstMedianGrowth } from './lists.js';
import { benchLiveLogs, printLiveLogs } from './live-logs.js';
import { fmt, fmtSpread, spread, table, type Spread } from './src/load.js';

console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, node ${process.version}\n`);

console.log('== pipelines ==');
const pipes = await benchPipelines();
printPipelines(pipes);

console.log('\n== project list throughput ==');
const lists = await benchProjectLists();
printProjectList(lists);

console.log('\n== live logs ==');
const live = await benchLiveLogs();
printLiveLogs(live);

console.log('\n== lists at scale ==');
const scaled = await benchAllLists();
printLists(scaled);

console.log('\n== start times ==');
const starts = await benchColdStart();
printColdStart(starts);

console.log('\n== deploy overhead ==');
const deploy = await benchDeployOverhead();
printDeployOverhead(deploy);

console.log('\n== build sandbox ==');
const sandbox = await benchSandbox();
printSandbox(sandbox);

console.log('\n== docker-push step ==');
const push = await benchDockerPush();
printDockerPush(push);

console.log('\n== web app: initial JavaScript ==');
const web = await benchWebBundle();
printWebBundle(web);

/** One line of the budget: measured spread, the budget, and whether the median meets it. */
const line = (measure: string, s: Spread | undefined, budget: { max?: number; min?: number; unit?: string; digits?: number }) => {
  const unit = budget.unit ?? '';
  const digits = budget.digits ?? 2;
  if (!s) return { measure, 'median (min–max)': 'not measured', budget: '', met: '' };
  if (budget.max === undefined && budget.min === undefined) return { measure, 'median (min–max)': `${fmtSpread(s, digits)}${unit}`, budget: '', met: '' };
  const met = (budget.max === undefined || s.median <= budget.max) && (budget.min === undefined || s.median >= budget.min);
  const limit = budget.max !== undefined ? `≤ ${fmt(budget.max, digits)}${unit}` : `≥ ${fmt(budget.min!, digits)}${unit}`;
  return { measure, 'median (min–max)': `${fmtSpread(s, digits)}${unit}`, budget: limit, met: met ? 'yes' : 'NO' };
};
const one = (x: number): Spread => ({ median: x, min: x, max: x });
const scale = (s: Spread, f: number): Spread => ({ median: s.median * f, min: s.min * f, max: s.max * f });
const listOn = (db: string) => lists.find((l) => l.database === db)?.ratio;
const deployRatios = deploy.gantryMs.map((g: number, i: number) => g / deploy.manualMs[i]!);
const kb = (page: string) => {
  const w = web.find((p) => p.page === page);
  return w ? one(w.gzipBytes / 1024) : undefined;
};

console.log('\n== the performance budget (issue 14) ==');
table([
  line('3 short steps, trigger → SUCCEEDED ÷ the same commands in bash', pipes.overhead.ratio, { max: 1.3 }),
  line('  its floor: the same 3 steps in an empty build box ÷ bash', pipes.floor.ratio, {}),
  line('trigger → first step running, p95 (s)', one(pipes.firstStep.p95Ms / 1000), { max: 0.5 }),
  line('trigger → first step running, every run (s)', scale(pipes.firstStep.ms, 1 / 1000), {}),
  line('Quick Deploy of 5 terraform_data ÷ terraform apply by hand', spread(deployRatios), { max: 1.2 }),
  line('authenticated project list req/s ÷ bare Fastify, PostgreSQL', listOn('PostgreSQL'), { min: 0.5, digits: 3 }),
  line('the same on PGlite', listOn('PGlite'), { min: 0.2, digits: 3 }),
  line('npm start again on an existing data dir → first answer (s)', spread(starts.again.map((r) => r.ms / 1000)), { max: 5 }),
  line('npm start on a fresh data dir → first answer (s)', spread(starts.fresh.map((r) => r.ms / 1000)), { max: 10 }),
  line('npm start again → API ready, /healthz 200 (s)', spread(starts.again.map((r) => r.apiMs / 1000)), {}),
  line('npm start, fresh data dir → API ready, /healthz 200 (s)', spread(starts.fresh.map((r) => r.apiMs / 1000)), {}),
  line('initial JS, gzip, of /login (KB)', kb('/login'), { max: 250, digits: 0 }),
  line('initial JS, gzip, of /projects (KB)', kb('/projects'), { max: 250, digits: 0 }),
  line('list endpoints with 2,000 pipelines, 10,000 builds, 200 projects: p95, slowest list at 10× history (ms)', worstList(scaled), { max: 100, digits: 1 }),
  line('the same lists: p95 at 10× history ÷ at 1×, every list (flat ≈ 1)', worstGrowth(scaled), {}),
  line('the same lists: median at 10× history ÷ at 1×, every list (flat ≈ 1; a p95 ratio strays with the machine load)', worstMedianGrowth(scaled), {}),
  line('live logs: lines lost of 100,000, client at the trigger and client joining mid-stream', one(live.clients.reduce((n, c) => n + c.lost, 0)), {
    max: 0,
    digits: 0,
  }),
  line('live logs: lines reordered of 100,000, both clients', one(live.clients.reduce((n, c) => n + c.reordered, 0)), { max: 0, digits: 0 }),
  line('live logs: p95 line latency at 1,000 lines/s (ms)', one(live.paced.p95Ms), { max: 250, digits: 1 }),
  line('live logs: step start → last of 100,000 lines on the websocket ÷ step time', one(pipes.logs.ratio), {}),
]);
console.log(
  `(docker-push step median ${fmt(push.step.median, 0)} ms, by hand ${fmt(push.byHand.median, 0)} ms; sandbox adds ${fmt(sandbox.box.median - sandbox.host.median, 1)} ms per step process)`,
);
process.exit(0);
