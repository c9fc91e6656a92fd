import { KubeError, statusBody } from './status.js';
import type { KObj } from './store.js';

/**
 * Field ownership as the API server tracks it in metadata.managedFields (FieldsV1), and server-side apply on
 * top of it. Simplification: lists are atomic (owned and replaced whole), where the real server merges
 * containers, ports and env by key; maps merge field by field as the real one does.
 */

type Path = string[];
const SEP = '\u0000';
const enc = (p: Path) => p.join(SEP);
const dec = (s: string): Path => s.split(SEP);

const isMap = (v: unknown): v is KObj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Leaf paths of an applied or posted object (identity, bookkeeping and status are nobody's fields). */
export function leafPaths(obj: KObj, withStatus = false): Path[] {
  const out: Path[] = [];
  const walk = (v: unknown, p: Path) => {
    if (isMap(v) && Object.keys(v).length) for (const [k, c] of Object.entries(v)) walk(c, [...p, k]);
    else out.push(p);
  };
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'apiVersion' || k === 'kind' || (k === 'status' && !withStatus)) continue;
    if (k === 'metadata') {
      for (const mk of ['labels', 'annotations', 'finalizers', 'ownerReferences']) if (v?.[mk] !== undefined) walk(v[mk], ['metadata', mk]);
      continue;
    }
    walk(v, [k]);
  }
  return out;
}

export const getPath = (o: KObj, p: Path): unknown => p.reduce<any>((cur, k) => (isMap(cur) ? cur[k] : undefined), o);

function deletePath(o: KObj, p: Path) {
  const parents: KObj[] = [];
  let cur: any = o;
  for (const k of p.slice(0, -1)) {
    if (!isMap(cur[k])) return;
    parents.push(cur);
    cur = cur[k];
  }
  delete cur[p[p.length - 1]];
  // a map emptied by removing its last owned field goes too, as it was only there for that field
  for (let i = p.length - 2; i >= 0; i--) {
    const parent = parents[i];
    if (isMap(parent[p[i]]) && !Object.keys(parent[p[i]]).length) delete parent[p[i]];
    else break;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Deep merge of applied into live: maps merge, lists and scalars replace. */
function merge(live: KObj, applied: KObj): KObj {
  const out: KObj = { ...live };
  for (const [k, v] of Object.entries(applied)) out[k] = isMap(v) && isMap(live[k]) ? merge(live[k], v) : structuredClone(v);
  return out;
}

export function toFieldsV1(paths: Path[]): KObj {
  const root: KObj = {};
  for (const p of paths) {
    let cur = root;
    for (const k of p) cur = cur[`f:${k}`] ??= {};
  }
  return root;
}

export function fromFieldsV1(f: KObj, prefix: Path = []): Path[] {
  const entries = Object.entries(f).filter(([k]) => k.startsWith('f:'));
  if (!entries.length) return prefix.length ? [prefix] : [];
  return entries.flatMap(([k, v]) => fromFieldsV1(v, [...prefix, k.slice(2)]));
}

interface Entry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: KObj;
  subresource?: string;
}
type Owners = { entry: Entry; paths: Set<string> }[];

const ownersOf = (obj: KObj | undefined): Owners =>
  ((obj?.metadata?.managedFields ?? []) as Entry[]).map((entry) => ({ entry, paths: new Set(fromFieldsV1(entry.fieldsV1).map(enc)) }));

function writeOwners(obj: KObj, owners: Owners) {
  const kept = owners.filter((o) => o.paths.size);
  obj.metadata.managedFields = kept.map((o) => ({ ...o.entry, fieldsV1: toFieldsV1([...o.paths].sort().map(dec)) }));
}

function ownerFor(owners: Owners, manager: string, operation: Entry['operation'], apiVersion: string, now: string, subresource?: string) {
  let o = owners.find((x) => x.entry.manager === manager && x.entry.operation === operation && x.entry.subresource === subresource);
  if (!o)
    owners.push(
      (o = {
        entry: { manager, operation, apiVersion, time: now, fieldsType: 'FieldsV1', fieldsV1: {}, ...(subresource ? { subresource } : {}) },
        paths: new Set(),
      }),
    );
  o.entry = { ...o.entry, apiVersion, time: now };
  return o;
}

/**
 * Server-side apply of `applied` by `manager` onto `live` (undefined: create). Conflicts (another manager owns a
 * field the config sets to a different value) are a 409 unless force, which takes the fields over. Fields this
 * manager applied before and leaves out now are removed, unless another manager also owns them.
 */
export function serverSideApply(
  live: KObj | undefined,
  applied: KObj,
  o: { manager: string; force: boolean; apiVersion: string; now: string; qualifiedName: string },
): KObj {
  const owners = ownersOf(live);
  const appliedPaths = leafPaths(applied).map(enc);
  const mine = ownerFor(owners, o.manager, 'Apply', o.apiVersion, o.now);
  const conflicts: { manager: string; apiVersion: string; path: string }[] = [];
  for (const p of appliedPaths) {
    for (const other of owners) {
      if (other === mine || !other.paths.has(p)) continue;
      if (live && !same(getPath(live, dec(p)), getPath(applied, dec(p)))) {
        if (o.force) other.paths.delete(p);
        else conflicts.push({ manager: other.entry.manager, apiVersion: other.entry.apiVersion, path: `.${dec(p).join('.')}` });
      }
    }
  }
  if (conflicts.length) {
    const msg = `Apply failed with ${conflicts.length} conflict${conflicts.length > 1 ? 's' : ''}: ${conflicts.map((c) => `conflict with "${c.manager}" using ${c.apiVersion}: ${c.path}`).join('\n')}`;
    throw new KubeError(
      409,
      statusBody(409, 'Conflict', msg, {
        causes: conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with "${c.manager}" using ${c.apiVersion}`, field: c.path })),
      }),
    );
  }
  const next: KObj = merge(live ? structuredClone(live) : {}, applied);
  const nowApplied = new Set(appliedPaths);
  for (const p of mine.paths) {
    if (nowApplied.has(p)) continue;
    if (!owners.some((x) => x !== mine && x.paths.has(p))) deletePath(next, dec(p));
  }
  mine.paths = nowApplied;
  writeOwners(next, owners);
  return next;
}

/** An Update (create, replace, patch, controller write) by manager: it owns every field it changed, taking them from others. */
export function trackUpdate(before: KObj | undefined, after: KObj, o: { manager: string; apiVersion: string; now: string; subresource?: string }) {
  const owners = ownersOf(before);
  const withStatus = o.subresource === 'status';
  const changed = before
    ? leafPaths(after, withStatus)
        .map(enc)
        .filter((p) => !same(getPath(before, dec(p)), getPath(after, dec(p))))
    : leafPaths(after).map(enc);
  const removed = before
    ? leafPaths(before, withStatus)
        .map(enc)
        .filter((p) => getPath(after, dec(p)) === undefined)
    : [];
  for (const x of owners) for (const p of removed) x.paths.delete(p);
  if (changed.length) {
    const mine = ownerFor(owners, o.manager, 'Update', o.apiVersion, o.now, o.subresource);
    for (const x of owners) if (x !== mine) for (const p of changed) x.paths.delete(p);
    for (const p of changed) mine.paths.add(p);
  }
  writeOwners(after, owners);
}

/** RFC 7386 JSON merge patch (also used for strategic merge patches, whose list merging the stand-in does not do). */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isMap(patch)) return structuredClone(patch);
  const out: KObj = isMap(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** RFC 6902 JSON patch: add, remove, replace, test. */
export function jsonPatch(doc: KObj, ops: { op: string; path: string; value?: unknown }[]): KObj {
  const out = structuredClone(doc);
  for (const op of ops) {
    const parts = op.path
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop()!;
    const parent = parts.reduce<any>((cur, k) => cur?.[k], out);
    if (parent == null)
      throw new KubeError(422, statusBody(422, 'Invalid', `the server rejected our request due to an error in our request: path ${op.path} not found`));
    if (op.op === 'test' && !same(parent[last], op.value))
      throw new KubeError(422, statusBody(422, 'Invalid', `the server rejected our request due to an error in our request: test failed at ${op.path}`));
    if (op.op === 'remove' && Array.isArray(parent)) parent.splice(Number(last), 1);
    else if (op.op === 'remove') delete parent[last];
    if (op.op === 'add' && Array.isArray(parent)) parent.splice(last === '-' ? parent.length : Number(last), 0, op.value);
    else if (op.op === 'add' || op.op === 'replace') parent[last] = op.value;
  }
  return out;
}
