import type { ResourceDef } from './resources.js';

export type KObj = Record<string, any>;
export type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchRecord {
  rv: number;
  type: WatchType;
  def: ResourceDef;
  object: KObj;
  /** The object before a MODIFIED (so a watch whose selector it stops matching can send DELETED). */
  previous?: KObj;
}

const HISTORY = 50_000;

/**
 * All objects, with one cluster-wide resourceVersion counter as etcd's revision. Stored objects are never
 * mutated in place (callers put a new object), so history records and list answers can share them.
 */
export class ObjectStore {
  private rv = 1000;
  private readonly byResource = new Map<ResourceDef, Map<string, KObj>>();
  private readonly history: WatchRecord[] = [];
  private readonly listeners = new Set<(r: WatchRecord) => void>();

  get resourceVersion(): string {
    return String(this.rv);
  }

  private bucket(def: ResourceDef) {
    let b = this.byResource.get(def);
    if (!b) this.byResource.set(def, (b = new Map()));
    return b;
  }

  private static key(namespace: string | undefined, name: string) {
    return `${namespace ?? ''}/${name}`;
  }

  get(def: ResourceDef, namespace: string | undefined, name: string): KObj | undefined {
    return this.bucket(def).get(ObjectStore.key(def.namespaced ? namespace : undefined, name));
  }

  list(def: ResourceDef, namespace?: string): KObj[] {
    const all = [...this.bucket(def).values()];
    return namespace && def.namespaced ? all.filter((o) => o.metadata.namespace === namespace) : all;
  }

  /** Stores obj (taking ownership of it) under a new resourceVersion; ADDED when new, else MODIFIED. */
  put(def: ResourceDef, obj: KObj): KObj {
    const key = ObjectStore.key(def.namespaced ? obj.metadata.namespace : undefined, obj.metadata.name);
    const previous = this.bucket(def).get(key);
    obj.metadata.resourceVersion = String(++this.rv);
    this.bucket(def).set(key, obj);
    this.emit({ rv: this.rv, type: previous ? 'MODIFIED' : 'ADDED', def, object: obj, previous });
    return obj;
  }

  remove(def: ResourceDef, namespace: string | undefined, name: string): KObj | undefined {
    const key = ObjectStore.key(def.namespaced ? namespace : undefined, name);
    const existing = this.bucket(def).get(key);
    if (!existing) return undefined;
    this.bucket(def).delete(key);
    const gone = { ...existing, metadata: { ...existing.metadata, resourceVersion: String(++this.rv) } };
    this.emit({ rv: this.rv, type: 'DELETED', def, object: gone });
    return gone;
  }

  /** Records after resourceVersion rv, or undefined when rv is older than the kept history (410 Gone). */
  since(rv: number): WatchRecord[] | undefined {
    if (rv >= this.rv) return [];
    const first = this.history[0];
    if (!first || rv < first.rv - 1) return undefined;
    return this.history.filter((r) => r.rv > rv);
  }

  subscribe(fn: (r: WatchRecord) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(r: WatchRecord) {
    this.history.push(r);
    if (this.history.length > HISTORY) this.history.splice(0, this.history.length - HISTORY);
    for (const fn of this.listeners) fn(r);
  }
}
