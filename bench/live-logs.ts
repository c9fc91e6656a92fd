/**
 * Live logs (issue 14): what a websocket client sees of a running step's log, against a real Gantry
 * (in this process, PGlite) and the git provider stand-in.
 *  - integrity: a step prints 1…100,000; one client subscribes at the trigger, a second joins mid-stream
 *    (after the first has seen BENCH_JOIN_AT lines). Each keeps chunks by seq as the web app does
 *    (api/log-chunks); lost = numbers a client never got, reordered = lines after a larger number.
 *  - latency: a step prints a line with its wall-clock time every millisecond (1,000 lines/s for
 *    BENCH_PACED_LINES lines); a line's latency is its arrival at the client minus that time, p95 over all.
 *   npx tsx bench/live-logs.ts   (BENCH_LINES, BENCH_JOIN_AT, BENCH_PACED_LINES)
 */
import type { Socket } from 'socket.io-client';
import { fmt, isMain, table } from './src/load.js';
import { pipelineFixture } from './src/pipeline-fixture.js';

const LINES = Number(process.env.BENCH_LINES ?? 100_000);
const JOIN_AT = Number(process.env.BENCH_JOIN_AT ?? 20_000);
const PACED_LINES = Number(process.env.BENCH_PACED_LINES ?? 5_000);

const countSpec = `steps:\n  Count:\n    commands:\n      - seq 1 ${LINES}\n`;
// perl keeps the pace against the clock (sleeping 1 ms per line would drift below 1,000 lines/s)
const pacedScript = `$|=1; my $t0 = time; for my $i (1..${PACED_LINES}) { my $d = $t0 + $i / 1000 - time; sleep($d) if $d > 0; printf("%d %.6f\\n", $i, time) }`;
const pacedSpec = `steps:\n  Paced:\n    commands:\n      - '${`perl -MTime::HiRes=time,sleep -e '${pacedScript}'`.replaceAll("'", "''")}'\n`;

interface Chunk {
  buildId: string;
  step: string;
  seq: number;
  text: string;
}

/** A client's view of one step's log: chunks by seq, first copy kept (the backlog overlaps the live ones); `lines` are its numbers. */
function follow(socket: Socket, buildId: string, step: string, onLines?: (lines: string[], at: number) => void) {
  const bySeq = new Map<number, string>();
  socket.on('logs', (c: Chunk) => {
    if (c.buildId !== buildId || c.step !== step || bySeq.has(c.seq)) return;
    bySeq.set(c.seq, c.text);
    onLines?.(c.text.replace(/\n$/, '').split('\n'), Date.now());
  });
  return {
    lines: () =>
      [...bySeq.entries()]
        .sort((a, b) => a[0] - b[0])
        .flatMap(([, text]) => text.replace(/\n$/, '').split('\n'))
        .filter((line) => /^\d+$/.test(line)),
  };
}

const until = async (cond: () => boolean, timeoutMs: number, what: string) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Lost and reordered lines of a log that should read 1…n. */
export function integrity(lines: string[], n: number) {
  const seen = new Set<number>();
  let reordered = 0;
  let last = 0;
  for (const line of lines) {
    const k = Number(line);
    if (k < last) reordered++;
    last = Math.max(last, k);
    seen.add(k);
  }
  let lost = 0;
  for (let k = 1; k <= n; k++) if (!seen.has(k)) lost++;
  return { lost, reordered };
}

export interface LiveLogsResult {
  lines: number;
  clients: { client: string; received: number; lost: number; reordered: number }[];
  paced: { lines: number; p50Ms: number; p95Ms: number; maxMs: number; linesPerSecond: number };
}

export async function benchLiveLogs(): Promise<LiveLogsResult> {
  const fx = await pipelineFixture({ count: countSpec, paced: pacedSpec });
  try {
    const subscribe = (s: Socket, pipelineId: string, buildId: string, step: string) =>
      s.emitWithAck('logs:subscribe', { projectId: fx.projectId, pipelineId, buildId, step, type: 'pipeline' });

    // integrity over LINES lines, an early client and one joining mid-stream
    const [early, late] = [await fx.socket(), await fx.socket()];
    const countId = fx.pipelineIds.count!;
    const build = await fx.trigger(countId);
    const first = follow(early, build, 'Count');
    await subscribe(early, countId, build, 'Count');
    await until(() => first.lines().length >= JOIN_AT, 300_000, `${JOIN_AT} lines`);
    const second = follow(late, build, 'Count');
    await subscribe(late, countId, build, 'Count');
    const done = await fx.finished(countId, build);
    if (done.status !== 'SUCCEEDED') throw new Error(`the ${LINES}-line build ${done.status}`);
    // every line is published by the time the step is over; give the sockets a moment to deliver the last ones
    await until(() => first.lines().length >= LINES && second.lines().length >= LINES, 10_000, 'the last lines').catch(() => undefined);
    const clients = [
      { client: 'subscribed at the trigger', lines: first.lines() },
      { client: `joined after ${fmt(JOIN_AT)} lines`, lines: second.lines() },
    ].map((c) => ({ client: c.client, received: c.lines.length, ...integrity(c.lines, LINES) }));

    // latency at 1,000 lines/s
    const s = await fx.socket();
    const pacedId = fx.pipelineIds.paced!;
    const pacedBuild = await fx.trigger(pacedId);
    const latencies: number[] = [];
    follow(s, pacedBuild, 'Paced', (lines, at) => {
      for (const line of lines) {
        const stamp = Number(line.split(' ')[1]);
        if (stamp) latencies.push(at - stamp * 1000);
      }
    });
    await subscribe(s, pacedId, pacedBuild, 'Paced');
    const paced = await fx.finished(pacedId, pacedBuild);
    if (paced.status !== 'SUCCEEDED') throw new Error(`the paced build ${paced.status}`);
    await until(() => latencies.length >= PACED_LINES, 10_000, 'the paced lines').catch(() => undefined);
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)] ?? NaN;
    const step = paced.steps[0];
    return {
      lines: LINES,
      clients,
      paced: {
        lines: latencies.length,
        p50Ms: at(0.5),
        p95Ms: at(0.95),
        maxMs: sorted.at(-1) ?? NaN,
        linesPerSecond: PACED_LINES / ((Date.parse(step.stopDate) - Date.parse(step.startDate)) / 1000),
      },
    };
  } finally {
    await fx.close();
  }
}

export function printLiveLogs(r: LiveLogsResult) {
  table(
    r.clients.map((c) => ({
      [`${fmt(r.lines)}-line step, client`]: c.client,
      received: fmt(c.received),
      lost: c.lost,
      reordered: c.reordered,
    })),
  );
  console.log(
    `paced step: ${fmt(r.paced.lines)} lines at ${fmt(r.paced.linesPerSecond, 0)} lines/s, latency p50 ${fmt(r.paced.p50Ms, 1)} ms, p95 ${fmt(r.paced.p95Ms, 1)} ms, max ${fmt(r.paced.maxMs, 1)} ms`,
  );
}

if (isMain(import.meta.url)) {
  printLiveLogs(await benchLiveLogs());
  process.exit(0);
}
