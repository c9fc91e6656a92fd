import fs from 'node:fs';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Whether `pid` still runs the engine (`name`, e.g. `terraform`): a pid recorded by a worker that
 * died may since have been reused by an unrelated process, which must not be signalled. Without
 * procfs (not Linux) a live pid is trusted.
 */
function runs(pid: number, name: string) {
  if (!alive(pid)) return false;
  if (!fs.existsSync('/proc/self/cmdline')) return true;
  try {
    const argv0 = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    return argv0.split('/').pop() === name;
  } catch {
    return false;
  }
}

/**
 * Ends an engine process a dead worker left behind on this host the way a cancel does: SIGINT to
 * terraform (it stops its provisioners, writes the state and releases the state lock), then
 * SIGKILL to its whole process group if it has not ended within `graceMs`. Resolves once it is gone;
 * false when there was nothing (of ours) to end.
 */
export async function endLeftoverProcess(pid: number, name: string, graceMs: number): Promise<boolean> {
  if (!runs(pid, name)) return false;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return false;
  }
  for (const end = Date.now() + graceMs; alive(pid) && Date.now() < end;) await new Promise((r) => setTimeout(r, 100));
  try {
    process.kill(-pid, 'SIGKILL'); // whatever the group still holds (provisioner children)
  } catch {
    /* the group is gone */
  }
  for (const end = Date.now() + 5000; alive(pid) && Date.now() < end;) await new Promise((r) => setTimeout(r, 50));
  return true;
}
