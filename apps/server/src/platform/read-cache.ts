/**
 * Reads that every request makes (token revocation, memberships, the project list) served from memory,
 * each kept until a table it read from is written.
 *
 * The database layer reports every write statement with the tables it names: `writing` before it runs,
 * `wrote` once it is committed (a statement outside a transaction, or the transaction's end). A read is
 * kept only when no write to its tables started or was in flight while it ran, so it never keeps a
 * row older than a commit it could have missed. Another process's commits arrive as `wrote` over the
 * database's notifications (PostgreSQL); while that channel is down nothing is kept.
 */
export interface WriteWatch {
  writing(tables: Iterable<string>): void;
  wrote(tables: Iterable<string>): void;
  /** Another process committed writes to these tables. */
  changed(tables: Iterable<string>): void;
  /** Tables some memo reads from, or whose writes cascade to one (only their commits are told to other processes). */
  watched(table: string): boolean;
  /** Whether kept reads may be used (false while the cross-process channel is down). */
  setShared(ok: boolean): void;
  /** Tables a write to a table also changes: foreign keys with ON DELETE/UPDATE actions (cascade, set null). */
  setDependents(dependents: Map<string, string[]>): void;
}

export interface ReadCache {
  /**
   * `load` memoised by its arguments; an entry is dropped once any of `tables` (names) is written (at most
   * `max` entries), or once the clock reaches its `until(value)` (epoch ms) for a value that changes with time.
   */
  memo<A extends unknown[], V>(
    tables: string[],
    load: (...args: A) => Promise<V>,
    opts?: { max?: number; until?: (value: V) => number },
  ): (...args: A) => Promise<V>;
  watch: WriteWatch;
}

interface Entry<V> {
  value: V;
  stamp: number;
  until: number;
}

export function createReadCache(): ReadCache {
  const generation = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const watchedTables = new Set<string>();
  let dependents = new Map<string, string[]>();
  let usable = true;
  let epoch = 0; // bumped when kept reads become unusable, so none taken before survives
  const gen = (t: string) => generation.get(t) ?? 0;
  const bump = (t: string) => generation.set(t, gen(t) + 1);
  const withDependents = (tables: Iterable<string>) => {
    const all = new Set<string>();
    const add = (t: string) => {
      if (all.has(t)) return;
      all.add(t);
      for (const d of dependents.get(t) ?? []) add(d);
    };
    for (const t of tables) add(t);
    return all;
  };

  const watch: WriteWatch = {
    writing(tables) {
      for (const t of withDependents(tables)) {
        bump(t);
        inFlight.set(t, (inFlight.get(t) ?? 0) + 1);
      }
    },
    wrote(tables) {
      for (const t of withDependents(tables)) {
        bump(t);
        const n = (inFlight.get(t) ?? 0) - 1;
        if (n > 0) inFlight.set(t, n);
        else inFlight.delete(t);
      }
    },
    changed(tables) {
      for (const t of withDependents(tables)) bump(t);
    },
    setDependents(map) {
      dependents = map;
      epoch++;
    },
    // a table no memo reads may still cascade to one that some memo reads
    watched: (t) => watchedTables.has(t) || [...withDependents([t])].some((d) => watchedTables.has(d)),
    setShared(ok) {
      usable = ok;
      epoch++;
    },
  };

  return {
    watch,
    memo(tables, load, opts) {
      const names = tables;
      for (const n of names) watchedTables.add(n);
      const max = opts?.max ?? 10_000;
      const until = opts?.until;
      const entries = new Map<string, Entry<Awaited<ReturnType<typeof load>>>>();
      const stamp = () => names.reduce((sum, n) => sum + gen(n), epoch * 1e9);
      const quiet = () => names.every((n) => !inFlight.has(n));
      return async (...args) => {
        // most memos take one id: it is its own key (a memo's arguments are always of the same types)
        const key = args.length === 1 && typeof args[0] === 'string' ? args[0] : JSON.stringify(args);
        const now = stamp();
        const hit = entries.get(key);
        if (usable && hit && hit.stamp === now && quiet() && (hit.until === Infinity || Date.now() < hit.until)) return hit.value;
        const value = await load(...args);
        if (usable && quiet() && stamp() === now) {
          if (entries.size >= max) entries.delete(entries.keys().next().value!);
          entries.set(key, { value, stamp: now, until: until ? until(value) : Infinity });
        }
        return value;
      };
    },
  };
}

const WRITE = /\b(?:insert\s+into|update|delete\s+from)\s+(?:"?\w+"?\.)?"?(\w+)"?/gi;

/** The tables a SQL text writes to (`insert into`, `update`, `delete from`; a schema prefix is dropped). */
export function tablesWritten(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(WRITE)) found.add(m[1]!.toLowerCase());
  return [...found];
}
