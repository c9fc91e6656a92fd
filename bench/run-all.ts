/**
 * Every benchmark, one after the other, then one table (`npm run bench`). Not part of `npm test`:
 * numbers depend on the machine (2 cores here); compare runs on the same machine only.
 */
import os from 'node:os';
import { benchColdStart, printColdStart } from './cold-start.js';
import { benchProjectLists, printProjectList } from './project-list.js';
import { benchDeployOverhead, printDeployOverhead } from './deploy-overhead.js';
import { benchSandbox, printSandbox } from './sandbox.js';
import { benchDockerPush, printDockerPush } from './docker-push.js';
import { benchWebBundle, printWebBundle } from './web-bundle.js';
import { fmt, fmtSpread, table } from './src/load.js';

console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, node ${process.version}\n`);

console.log('== project list throughput ==');
const lists = await benchProjectLists();
printProjectList(lists);

console.log('\n== cold start ==');
const cold = await benchColdStart();
printColdStart(cold);

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

const serverMedian = cold.serverOnly.map((x) => x.ms).sort((a, b) => a - b)[Math.floor(cold.serverOnly.length / 2)]!;
console.log('\n== summary ==');
table([
  ...lists.map((l) => ({ benchmark: `project list req/s ÷ bare Fastify, ${l.database}`, value: fmtSpread(l.ratio, 3) })),
  { benchmark: 'docker-push step, small image (median)', value: `${fmt(push.step.median, 0)} ms (by hand ${fmt(push.byHand.median, 0)} ms)` },
  { benchmark: 'cold start: npm start → first 200 on /', value: `${fmt(cold.npmStart.ms / 1000, 2)} s` },
  { benchmark: 'cold start: server only → first 200 on / (median)', value: `${fmt(serverMedian / 1000, 2)} s` },
  { benchmark: 'Quick Deploy / terraform apply by hand (5 resources)', value: fmt(deploy.ratio, 2) },
  ...web.map((w) => ({ benchmark: `initial JS of ${w.page}, gzip`, value: `${fmt(w.gzipBytes / 1024, 1)} KB` })),
  { benchmark: 'sandbox: added per step process (median)', value: `${fmt(sandbox.box.median - sandbox.host.median, 1)} ms` },
]);
