import { groupScope, type BoxGroup, type BoxLimitsPolicy, type PlanLimits } from './box-limits.js';

/**
 * The groups of one kind of run's boxes (builds, deployments) in one instance: named `<scope>-<key>`, the scope this
 * instance's (a hash of its data folder: another Gantry of the host has its own, and sweeps them itself), made with the
 * normal sizes and sized for the run's project once its plan is known, remembered until they end, and swept at start
 * when a crash left them.
 */
export interface RunGroups {
  /** The live group `<scope>-<key>`, or one made now with the normal sizes (undefined: no limits). */
  of(key: string): BoxGroup | undefined;
  /** The live group `<scope>-<key>`, if there is one. */
  live(key: string): BoxGroup | undefined;
  /**
   * Sizes the group for its project's plan (bigger, or back to normal: its box may have opened before the plan changed),
   * read unless `known` (as the run's trigger read it).
   */
  size(group: BoxGroup | undefined, projectId: string, known?: PlanLimits): Promise<void>;
  /** Kills what is left in the group and removes it (a failure is told to `onError` and left to the next start's sweep). */
  end(group: BoxGroup | undefined): Promise<void>;
  /** At start: removes every group of this instance that is not live and whose run `busy` does not name (`runOf` its key). */
  sweep(busy: () => Promise<Iterable<string>>, runOf?: (key: string) => string): Promise<void>;
  /** For a server stop: waits for the ends going on, then removes the parent left empty. */
  stop(): Promise<void>;
}

export function createRunGroups(policy: BoxLimitsPolicy | undefined, o: { scopeDir: string; onError?: (err: unknown, group: BoxGroup) => void }): RunGroups {
  const prefix = `${groupScope(o.scopeDir)}-`;
  const live = new Map<string, BoxGroup>();
  const ending = new Set<Promise<void>>();
  return {
    of(key) {
      if (!policy) return undefined;
      let group = live.get(prefix + key);
      if (!group) live.set(prefix + key, (group = policy.cgroups.group(prefix + key, policy.normal)));
      return group;
    },
    live: (key) => live.get(prefix + key),
    async size(group, projectId, known) {
      if (!group || !policy) return;
      const limits = (await policy.isBigger(projectId, known)) ? policy.bigger : policy.normal;
      if (group.limits !== limits) group.resize(limits);
    },
    end(group) {
      if (!group) return Promise.resolve();
      const ended = group
        .end()
        .catch((err: unknown) => o.onError?.(err, group))
        .finally(() => {
          if (live.get(group.name) === group) live.delete(group.name);
          ending.delete(ended);
        });
      ending.add(ended);
      return ended;
    },
    async sweep(busy, runOf = (key) => key) {
      const cgroups = policy?.cgroups;
      const left = (cgroups?.names() ?? []).filter((n) => n.startsWith(prefix) && !live.has(n));
      if (!left.length) return;
      const running = new Set(await busy());
      for (const name of left) if (!live.has(name) && !running.has(runOf(name.slice(prefix.length)))) await cgroups!.remove(name);
    },
    async stop() {
      await Promise.allSettled([...ending]);
      if (!live.size) policy?.cgroups.close();
    },
  };
}
