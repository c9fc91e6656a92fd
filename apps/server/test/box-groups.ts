import fs from 'node:fs';
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { joinCommand, type Cgroups } from '../src/integrations/executor/box-limits.js';
import { until, type TestApp } from './helpers.js';

/**
 * The start's sweep of the groups of boxes (box-limits.ts), as builds and deployments make them: a group `mine` of the
 * data dir's scope, as a crash left it, and a group of another Gantry of this host with a live box in it. `start`
 * starts Gantry on that data dir: `mine` is swept, the other group stays and its box lives.
 */
export async function expectSweptAtStart(cgroups: Cgroups, mine: string, start: () => Promise<TestApp>) {
  const small = { memoryBytes: 64 * 1024 ** 2, processes: 16, cpus: 1 };
  const left = cgroups.group(mine, small);
  const theirs = cgroups.group(`wffffffffff-${crypto.randomUUID()}`, small);
  const box = joinCommand(theirs, 'sleep', ['30']);
  const other = spawn(box.command, box.args, { stdio: 'ignore' });
  try {
    await until(
      async () => fs.readFileSync(theirs.joinFiles[0]!, 'utf8'),
      (procs) => procs.includes(String(other.pid)),
      'the other box to join its group',
      5000,
      20,
    );
    const restarted = await start();
    try {
      await until(
        async () => cgroups.names().includes(left.name),
        (there) => !there,
        "this instance's leftover group to be swept",
        10_000,
        20,
      );
      expect(cgroups.names()).toContain(theirs.name);
      expect(other.exitCode).toBeNull();
      expect(() => process.kill(other.pid!, 0)).not.toThrow();
    } finally {
      await restarted.close();
    }
  } finally {
    await theirs.end();
    await left.end();
  }
}
